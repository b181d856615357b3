import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.js';

/**
 * The package version, read from package.json at run time so it never drifts from the release.
 *
 * @example
 * `tarantula/${VERSION}` //=> 'tarantula/0.1.0'
 */
export const VERSION: string = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;

/** Whether a command-line argument asks for the version. */
export const isVersionFlag = (arg: string): boolean => arg === '--version' || arg === '-V';

/** What `tarantula --version` prints. */
export const versionLine = (): string => `tarantula ${VERSION}\n`;
