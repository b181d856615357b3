import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'tarantula') return dir;
    if (dirname(dir) === dir) throw new Error('tarantula: cannot find the package root (package.json)');
  }
}

/**
 * The installed package's folder, found from this module's own location: the same answer from
 * `src/` (tests), `dist/` (compiled modules) and the bundled CLI, wherever each file sits.
 *
 * @example
 * join(PACKAGE_ROOT, 'fixtures/demo') //=> '/usr/lib/node_modules/tarantula/fixtures/demo'
 */
export const PACKAGE_ROOT = findRoot();

/** A path inside the package. */
export const packagePath = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);
