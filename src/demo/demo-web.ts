import { packagePath } from '../config/package-root.js';
import type { ResolveEntry } from '../model/config.js';

/** The bundled fixture web: `fixtures/demo/HOST/...` (same path from `src/demo` and `dist/demo`). */
export const DEMO_ROOT = packagePath('fixtures', 'demo');

/** The demo crawl's configuration, `fixtures/demo/Crawler.conf`. */
export const DEMO_CONF = packagePath('fixtures', 'demo', 'Crawler.conf');

/** Every host the fixture web serves; `other.example.test` is outside the demo crawl's scope. */
export const DEMO_HOSTS: readonly string[] = [
  'www.tarantula.test',
  'docs.tarantula.test',
  'blog.tarantula.test',
  'other.example.test',
];

/**
 * The curl-style `--resolve` entries that send every demo host, at a fixture server's port, to
 * 127.0.0.1. The demo's seeds and links have no port; the server adds its own to the links it serves
 * (`portInLinks`), and `portLinks(DEMO_HOSTS, port)` does the same to the seeds.
 *
 * @example
 * demoResolve(40123)[0] //=> { host: 'www.tarantula.test', port: 40123, address: '127.0.0.1' }
 */
export function demoResolve(port: number): ResolveEntry[] {
  return DEMO_HOSTS.map((host) => ({ host, port, address: '127.0.0.1' }));
}
