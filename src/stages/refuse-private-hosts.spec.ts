import { beforeEach, describe, expect, it } from 'vitest';
import { addressGuard } from '../fetch/address-guard.js';
import { refusePrivateHosts } from './refuse-private-hosts.js';
import { admissible, marbles, reports } from '../../test/support/admission-values.js';

let drops: ReturnType<typeof reports>;
beforeEach(() => {
  drops = reports();
});

/** A link as normalizeLinks hands it on: the URL parser's form of what was written. */
const written = (href: string) => admissible(new URL(href).href);

describe('refusePrivateHosts', () => {
  const guard = addressGuard({ allowPrivate: false, trustedHosts: ['10.9.9.9'] });

  it('drops links to refused literal addresses, however written, as private-address; names and public addresses pass', () => {
    marbles().run(({ cold, expectObservable }) => {
      const values = {
        a: written('http://a.test/'),
        b: written('http://10.0.0.5/x'),
        c: written('http://[::1]:8080/'),
        d: written('http://2130706433/'),
        e: written('http://0x7f.1/'),
        f: written('http://93.184.216.34/'),
        g: written('http://169.254.169.254/latest/meta-data/'),
        h: written('http://[2606:4700::1111]/'),
        i: written('http://[::ffff:10.0.0.5]/'),
        j: written('http://10.9.9.9/'),
        k: written('http://1a.test/'),
      };
      expectObservable(cold('abcdefghijk|', values).pipe(refusePrivateHosts(guard, [], drops.report))).toBe('a----f-h-jk|', values);
    });
    expect(drops.reported).toEqual([
      ['private-address', 'http://10.0.0.5/x'],
      ['private-address', 'http://[::1]:8080/'],
      ['private-address', 'http://127.0.0.1/'],
      ['private-address', 'http://127.0.0.1/'],
      ['private-address', 'http://169.254.169.254/latest/meta-data/'],
      ['private-address', 'http://[::ffff:a00:5]/'],
    ]);
  });

  it('keeps a link a resolve entry pins, on that address and port only (80 and 443 when none is written)', () => {
    const resolve = [{ host: '10.0.0.5', port: 8080, address: '127.0.0.1' }, { host: '10.0.0.6', port: 443, address: '127.0.0.1' }];
    marbles().run(({ cold, expectObservable }) => {
      const values = {
        a: written('http://10.0.0.5:8080/'),
        b: written('http://10.0.0.5/'),
        c: written('https://10.0.0.6/'),
        d: written('http://10.0.0.6/'),
        e: written('https://10.0.0.6:443/'),
      };
      expectObservable(cold('abcde|', values).pipe(refusePrivateHosts(guard, resolve, drops.report))).toBe('a-c-e|', values);
    });
    expect(drops.reported).toEqual([['private-address', 'http://10.0.0.5/'], ['private-address', 'http://10.0.0.6/']]);
  });

  it('says so when the link it drops is a seed', () => {
    marbles().run(({ cold, expectObservable }) => {
      const values = { s: admissible('http://10.0.0.5/', 0, { seed: true }) };
      expectObservable(cold('s|', values).pipe(refusePrivateHosts(guard, [], drops.report))).toBe('-|');
    });
    expect(drops.seeds).toEqual(['http://10.0.0.5/']);
  });

  it('refuses nothing when private addresses are allowed', () => {
    marbles().run(({ cold, expectObservable }) => {
      const values = { a: written('http://10.0.0.5/'), b: written('http://[::1]/') };
      expectObservable(cold('ab|', values).pipe(refusePrivateHosts(addressGuard({ allowPrivate: true, trustedHosts: [] }), [], drops.report))).toBe('ab|', values);
    });
    expect(drops.reported).toEqual([]);
  });
});
