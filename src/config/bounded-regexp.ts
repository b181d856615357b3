import { setFlagsFromString } from 'node:v8';

let bounded = false;

/**
 * Turns on V8's linear-time regexp engine: `l` is recognised, which tells the patterns it can run,
 * and a match that backtracks more than 50,000 times goes on to finish on it, in time linear in the
 * input. The flags are the process's: the document workers have them, and so does every regexp of a
 * pipeline file. Measured: no cost on matches that do not backtrack that far. Set when first needed
 * ({@link boundedRegExp}, and the command line once a command's code is loaded), not when this module
 * is: any change of V8's flags makes node compile each of its own modules loaded after it from source,
 * at twice the CPU.
 */
export function boundBacktracking(): void {
  if (bounded) return;
  bounded = true;
  setFlagsFromString('--enable-experimental-regexp-engine');
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}

/** A user's regular expression that V8 could not stop from backtracking for ever. */
export class UnboundedRegExpError extends Error {
  /** `where` names the list the pattern came from, when known. */
  constructor(source: string, why: string, where = '') {
    super(`"${source}"${where} cannot be matched in linear time (${why}), so a URL could stall the crawl; write it without that`);
    this.name = 'UnboundedRegExpError';
  }
}

/**
 * A fresh RegExp for a user's pattern (a URL filter) that can never backtrack for ever: one V8's
 * linear engine can run, so that a pattern such as `(a+)+$` costs at most 50,000 backtracks and a
 * linear pass per URL instead of hanging the crawl. Throws {@link UnboundedRegExpError} for a pattern it
 * cannot run: backreferences, lookahead and lookbehind, a repeat count above 16, the i, u, v and d
 * flags; `key`, the list it came from, is named in the error. Fresh, because a regexp compiled
 * before these flags were set keeps no bound.
 *
 * @example
 * boundedRegExp('(a+)+$').test('/' + 'a'.repeat(40) + 'b') //=> false, in about a millisecond
 * boundedRegExp('(?!x)a', '', 'reject-list') // throws: "(?!x)a" in reject-list cannot be matched in linear time (a lookahead) ...
 */
export function boundedRegExp(source: string, flags = '', key?: string): RegExp {
  boundBacktracking();
  try {
    new RegExp(source, flags.replace(/[gy]/g, '') + 'l');
  } catch {
    throw new UnboundedRegExpError(source, unboundedFeature(source, flags), key === undefined ? '' : ` in ${key}`);
  }
  return new RegExp(source, flags);
}

/** What in a pattern V8's linear engine refuses, named for the user. */
function unboundedFeature(source: string, flags: string): string {
  const flag = /[iuvd]/.exec(flags)?.[0];
  if (flag !== undefined) return `the ${flag} flag`;
  if (/(^|[^\\])(\\\\)*\(\?<?[=!]/.test(source)) return /\(\?<[=!]/.test(source) ? 'a lookbehind' : 'a lookahead';
  if (/(^|[^\\])(\\\\)*\\([1-9]|k<)/.test(source)) return 'a backreference';
  if (/\{\d+(,\d*)?\}/.test(source)) return 'a repeat count above 16: use + or *';
  return 'a construct the linear engine lacks';
}
