import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ServeAddress } from '../model/config.js';
import { optionalText, BadValue, type ValueParser } from './value-parsers.js';

/**
 * Where `serve` listens: `[HOST:]PORT` (an IPv6 address in brackets), HOST 127.0.0.1 when left out;
 * empty means off.
 *
 * @example
 * serveAddress({ kind: 'scalar', text: '9464', line: 1 }, 'serve') //=> { host: '127.0.0.1', port: 9464 }
 * serveAddress({ kind: 'scalar', text: '[::1]:9464', line: 1 }, 'serve') //=> { host: '::1', port: 9464 }
 */
export const serveAddress: ValueParser<ServeAddress | undefined> = (v, key) => {
  const text = optionalText(v, key);
  if (text === undefined) return undefined;
  const m = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]\s]+)):)?(\d{1,5})$/.exec(text);
  const port = Number(m?.[3]);
  const host = m?.[1] ?? m?.[2] ?? '127.0.0.1';
  if (m === null || port > 65535 || (m[1] !== undefined && isIP(m[1]) !== 6)) {
    throw new BadValue(`"${text}" is not [HOST:]PORT for ${key} (e.g. 9464, 127.0.0.1:9464, [::1]:9464)`);
  }
  return { host, port };
};

/**
 * The file of the control API's token (`serve-token-file`), checked now so that a wrong path or an
 * empty file stops the crawl before anything is crawled; empty means none (a token is made at start).
 *
 * @example
 * tokenFile({ kind: 'scalar', text: 'token.txt', line: 3 }, 'serve-token-file') //=> 'token.txt'
 */
export const tokenFile: ValueParser<string | undefined> = (v, key) =>
  checkedFile(v, key, (text) => (text.split(/\r?\n/, 1)[0]!.trim() === '' ? 'is empty: its first line is the token' : undefined));

/** Whether a `serve` host is a loopback address or name: only the machine itself can reach it. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/**
 * A file of PEM certificates (`ca-file`), checked now so that a wrong path stops the crawl before
 * any request, with the key's place; empty means none.
 *
 * @example
 * pemFile({ kind: 'scalar', text: 'certs/test-ca.pem', line: 3 }, 'ca-file') //=> 'certs/test-ca.pem'
 */
export const pemFile: ValueParser<string | undefined> = (v, key) =>
  checkedFile(v, key, (text) => (text.includes('-----BEGIN CERTIFICATE-----') ? undefined : 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)'));

/**
 * A file a key names, read now so that a wrong path or content stops the command before anything is
 * crawled, with the key's place; empty means none. `problem` says what is wrong with the text, if anything.
 */
function checkedFile(v: Parameters<ValueParser<string | undefined>>[0], key: string, problem: (text: string) => string | undefined): string | undefined {
  const path = optionalText(v, key);
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new BadValue(`cannot read ${key} "${path}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const wrong = problem(text);
  if (wrong !== undefined) throw new BadValue(`${key} "${path}" ${wrong}`);
  return path;
}

/**
 * A proxy URL (`proxy`), as curl's `--proxy`: `http://[user:password@]host:port` or `https://...`;
 * a bare `host:port` means http. Empty means none (the environment's proxies, if any).
 *
 * @example
 * proxyUrl({ kind: 'scalar', text: 'proxy.test:3128', line: 1 }, 'proxy') //=> 'http://proxy.test:3128'
 */
export const proxyUrl: ValueParser<string | undefined> = (v, key) => {
  const text = optionalText(v, key);
  return text === undefined ? undefined : proxyUrlOf(text, key);
};

/**
 * A proxy URL from `proxy` or an environment variable (`what` names it in the message), read as
 * curl reads one: a bare `host:port` is http. Throws {@link BadValue}.
 *
 * @example
 * proxyUrlOf('proxy.test:3128', 'HTTPS_PROXY') //=> 'http://proxy.test:3128'
 */
export function proxyUrlOf(text: string, what: string): string {
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  if (!URL.canParse(url)) throw new BadValue(`"${text}" is not a proxy URL for ${what}`);
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'http:' && protocol !== 'https:') throw new BadValue(`${what} "${text}": only http:// and https:// proxies are supported`);
  if (hostname === '') throw new BadValue(`${what} "${text}" has no host`);
  return url;
}

/** Header names the crawler sets itself, or that would break the exchange. */
const OWN_HEADERS = new Map([
  ['user-agent', 'set user-agent instead'],
  ['host', 'the host is the URL’s'],
  ['cookie', 'set cookies = true instead'],
  ['content-length', 'requests have no body'],
  ['transfer-encoding', 'requests have no body'],
  ['connection', 'connections are the crawler’s'],
  ['accept-encoding', 'the crawler decodes gzip, deflate and br itself'],
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `Name: value` headers added to every request (`headers`, flag `--header`, as curl's `-H`); the
 * name is kept lower case. Refuses names that are no HTTP token, values with line breaks, and the
 * headers the crawler owns.
 *
 * @example
 * headerList({ kind: 'scalar', text: 'Authorization: Bearer abc', line: 1 }, 'headers') //=> [['authorization', 'Bearer abc']]
 */
export const headerList: ValueParser<readonly (readonly [string, string])[]> = (v, key) =>
  (v.kind === 'list' ? v.items : [v]).map(({ text, line }) => {
    const colon = text.indexOf(':');
    const name = text.slice(0, Math.max(colon, 0)).trim();
    const value = text.slice(colon + 1).trim();
    if (colon < 0 || !TOKEN.test(name)) throw new BadValue(`"${text}" is not "Name: value" in ${key}`, line);
    if (/[\r\n\0]/.test(value)) throw new BadValue(`the value of ${name} in ${key} has a line break`, line);
    const own = OWN_HEADERS.get(name.toLowerCase());
    if (own !== undefined) throw new BadValue(`${name} cannot be set in ${key}: ${own}`, line);
    return [name.toLowerCase(), value] as const;
  });
