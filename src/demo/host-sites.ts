import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Headers one path of a site sends instead of (or besides) the defaults: header name → value, where
 * `null` removes a default header (e.g. `"Last-Modified": null`), and `status` sets the status code.
 */
export type HeaderOverride = Readonly<Record<string, string | number | null>>;

/** One virtual host of the fixture root: its folder and its `_headers.json`. */
export interface HostSite {
  readonly dir: string;
  /** Request path (decoded, with `?query` when the key has one) → overrides. */
  readonly overrides: ReadonlyMap<string, HeaderOverride>;
}

/** The name of the per-host sidecar file; it is never served. */
export const HEADERS_FILE = '_headers.json';

/**
 * A loader of the virtual hosts under `root`: `root/HOST/` is the site of HOST. Each existing site is
 * read once (its `_headers.json` included) and kept for the life of the server; a host with no folder
 * gives undefined and is looked up again next time, so a test may create it later.
 *
 * @example
 * const site = await hostSites('fixtures/demo')('www.tarantula.test');
 * site?.overrides.get('/news') //=> { 'Content-Type': 'text/html', 'Last-Modified': null }
 */
export function hostSites(root: string): (host: string) => Promise<HostSite | undefined> {
  const cache = new Map<string, Promise<HostSite | undefined>>();
  return (host) => {
    let site = cache.get(host);
    if (!site) {
      site = loadSite(join(root, host));
      cache.set(host, site);
      site.then(
        (s) => {
          if (!s) cache.delete(host);
        },
        () => cache.delete(host),
      );
    }
    return site;
  };
}

async function loadSite(dir: string): Promise<HostSite | undefined> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return undefined;
  const file = join(dir, HEADERS_FILE);
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  return { dir, overrides: text === undefined ? new Map() : parseOverrides(text, file) };
}

/**
 * Validates a `_headers.json` text; throws naming the file, since a bad fixture is a bug to see.
 *
 * @example
 * parseOverrides('{"/moved": {"status": 301, "Location": "/"}}', 'a/_headers.json').get('/moved')
 * //=> { status: 301, Location: '/' }
 */
export function parseOverrides(text: string, file: string): Map<string, HeaderOverride> {
  const data: unknown = JSON.parse(text);
  const fail = (why: string): never => {
    throw new Error(`${file}: ${why}`);
  };
  if (!isObject(data)) fail('expected an object mapping paths to header objects');
  const map = new Map<string, HeaderOverride>();
  for (const [path, headers] of Object.entries(data as object)) {
    if (!path.startsWith('/')) fail(`path "${path}" must start with /`);
    if (!isObject(headers)) fail(`"${path}" must map to an object of headers`);
    for (const [name, value] of Object.entries(headers as object)) {
      const ok = name === 'status'
        ? Number.isInteger(value) && value >= 100 && value <= 599
        : value === null || typeof value === 'string' || typeof value === 'number';
      if (!ok) fail(`"${path}": bad value for ${name}`);
    }
    map.set(path, headers as HeaderOverride);
  }
  return map;
}

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
