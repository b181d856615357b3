import { createRequire } from 'node:module';

/**
 * The package version, read from package.json at run time so it never drifts from the release.
 * Both `src/version.ts` and the compiled `dist/version.js` sit one level below the package root.
 *
 * @example
 * `tarantula/${VERSION}` //=> 'tarantula/0.1.0'
 */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
