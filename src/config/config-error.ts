/**
 * Stable codes of configuration failures, kebab-case like every failure code. `conf-*` come from Crawler.conf (or reading it),
 * `arg-*` from the command line, `env-*` from environment variables (HTTPS_PROXY...). Every one of them means the same thing to the caller:
 * abort before any request is sent, exit status 2 (SPEC §2).
 */
export type ConfigErrorCode =
  | 'conf-read'
  | 'conf-syntax'
  | 'conf-unknown-section'
  | 'conf-unknown-key'
  | 'conf-bad-value'
  | 'conf-no-seeds'
  | 'arg-unknown'
  | 'arg-missing'
  | 'arg-bad-value'
  | 'arg-extra'
  | 'env-bad-value';

/**
 * A bad configuration or command line. The message is `WHERE: DETAIL`, where WHERE is
 * `FILE:LINE`, `FILE` or a flag such as `--max-depth`, so it can be printed as it is.
 *
 * @example
 * new ConfigError('conf-unknown-key', 'Crawler.conf:7', 'unknown key "max-pages-numbr" in <crawler-options>').message
 * //=> 'Crawler.conf:7: unknown key "max-pages-numbr" in <crawler-options>'
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(
    readonly code: ConfigErrorCode,
    /** `FILE:LINE`, `FILE`, `--flag`, or '' when the problem has no place (a missing command). */
    readonly where: string,
    /** The problem without its place. */
    readonly detail: string,
  ) {
    super(where === '' ? detail : `${where}: ${detail}`);
  }
}

/**
 * The WHERE part of a message about a file: `FILE:LINE`, or `FILE` when no line applies.
 *
 * @example
 * place('Crawler.conf', 12) //=> 'Crawler.conf:12'
 */
export function place(file: string, line?: number): string {
  return line === undefined || line <= 0 ? file : `${file}:${line}`;
}
