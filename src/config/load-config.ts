import { readFile } from 'node:fs/promises';
import type { CrawlerConfig } from '../model/config.js';
import { ConfigError } from './config-error.js';
import { buildConfig, type BuildOptions, type ConfigOverrides } from './build-config.js';
import { DEFAULT_CONFIG } from './keys.js';
import { parseConf } from './parse-conf.js';

/** The file read when the command line names none: `Crawler.conf` in the current directory. */
export const DEFAULT_CONF_PATH = 'Crawler.conf';

/**
 * Reads a Crawler.conf, applies the overrides (the command-line flags) and checks everything,
 * so that a crawl never starts on a bad configuration. Messages name the file as given.
 *
 * `path` undefined means {@link DEFAULT_CONF_PATH}; when that file does not exist but the
 * overrides give starting points or input files (or `opts.canResume` says the repository holds a
 * crawl), the defaults are used, with a warning saying so. A file
 * named explicitly must exist.
 *
 * @throws {ConfigError} `conf-read` when the file cannot be read, or any error of
 *   {@link parseConf} and {@link buildConfig}.
 * @example
 * await loadConfig('Crawler.conf', { maxPageNumber: 10 })
 * //=> { config: { startingPoints: ['http://www.tarantula.test/', ...], maxPageNumber: 10, ... }, warnings: [] }
 */
export async function loadConfig(
  path: string | undefined,
  overrides: ConfigOverrides = {},
  opts: BuildOptions = {},
): Promise<{ config: CrawlerConfig; warnings: string[] }> {
  const file = path ?? DEFAULT_CONF_PATH;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const seeded =
      (overrides.startingPoints?.length ?? 0) > 0 ||
      (overrides.inputFiles?.length ?? 0) > 0 ||
      (opts.canResume?.(overrides.repository ?? DEFAULT_CONFIG.repository) ?? false);
    if (path === undefined && e.code === 'ENOENT' && seeded) {
      const built = buildConfig([], file, overrides, opts);
      built.warnings.unshift(`${file}: not found; using the defaults and the command-line flags`);
      return built;
    }
    throw new ConfigError('conf-read', file, `cannot read: ${e.message}`);
  }
  return buildConfig(parseConf(text, file), file, overrides, opts);
}
