import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A key and its certificate, PEM, as https.createServer takes them. */
export interface KeyPair {
  readonly key: string;
  readonly cert: string;
}

/** A certificate authority made for one test run, never trusted anywhere else. */
export interface TestCa {
  /** The CA certificate's file, for `--ca-file`. */
  readonly caFile: string;
  /** A server certificate for `names` (subjectAltName DNS entries), valid now or in the given period. */
  issue(names: readonly string[], period?: { readonly start: string; readonly end: string }): KeyPair;
}

const openssl = (dir: string, args: readonly string[]): void => {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
};

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/**
 * Makes a test CA in `dir` with the openssl CLI (`openssl ca`, which can date a certificate in the
 * past, so an expired one can be had). Test-only keys, made at test time and removed with `dir`.
 *
 * @example
 * const ca = makeTestCa(dir); https.createServer(ca.issue(['secure.test']), handler);
 */
export function makeTestCa(dir: string): TestCa {
  openssl(dir, ['req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=tarantula test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  writeFileSync(join(dir, 'index.txt'), '');
  writeFileSync(join(dir, 'serial'), '01\n');
  writeFileSync(join(dir, 'ca.cnf'), [
    '[ca]', 'default_ca = test', '[test]', 'database = index.txt', 'new_certs_dir = .', 'certificate = ca.pem',
    'private_key = ca.key', 'serial = serial', 'default_md = sha256', 'policy = any', 'copy_extensions = copy', 'unique_subject = no',
    '[any]', 'commonName = supplied', '',
  ].join('\n'));
  let n = 0;
  return {
    caFile: join(dir, 'ca.pem'),
    issue(names, period) {
      const name = `leaf-${++n}`;
      writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${names.map((h) => `DNS:${h}`).join(',')}\n`);
      openssl(dir, ['req', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${names[0]}`]);
      const dates = period ? ['-startdate', period.start, '-enddate', period.end] : ['-days', '2'];
      openssl(dir, ['ca', '-batch', '-config', 'ca.cnf', '-in', `${name}.csr`, '-out', `${name}.pem`, '-notext', '-extfile', `${name}.ext`, ...dates]);
      return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.pem`), 'utf8') };
    },
  };
}

/** A self-signed server certificate for `name` (no CA vouches for it). */
export function selfSigned(dir: string, name: string): KeyPair {
  openssl(dir, ['req', '-x509', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '2', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`]);
  return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.pem`), 'utf8') };
}
