/** What a page's robots rules (`<meta name="robots">`, `X-Robots-Tag`) forbid, SPEC §5. */
export interface RobotsDirectives {
  /** The page gets no index record (it is still counted). */
  readonly noindex: boolean;
  /** No link of the page is followed or listed. */
  readonly nofollow: boolean;
}

export const NO_DIRECTIVES: RobotsDirectives = Object.freeze({ noindex: false, nofollow: false });

/** Rules written `name: value`, whose colon does not introduce a user agent. */
const VALUED_RULES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);
const TOKEN = /[^,\s]+/g;
const AGENT_NAME = /^[a-z][\w.-]*$/;

/**
 * Reads robots rules as `X-Robots-Tag` headers and `<meta name="robots" content>` write them:
 * comma- or space-separated, case-insensitive; `none` is `noindex, nofollow`; `all` and rules that
 * do not concern us change nothing. A `name:` prefix restricts the rules after it (in the same
 * value) to that user agent, which counts only when it is `agent`, compared case-insensitively.
 * Several values (several headers, several meta tags) add up.
 *
 * @param agent the crawler's robots name (the first product token of its user agent).
 * @example
 * parseRobotsDirectives('noindex')                                    //=> { noindex: true, nofollow: false }
 * parseRobotsDirectives(['otherbot: none', 'tarantula: nofollow'], 'tarantula')
 * //=> { noindex: false, nofollow: true }
 */
export function parseRobotsDirectives(
  values: string | readonly string[] | undefined,
  agent?: string,
): RobotsDirectives {
  if (values === undefined) return NO_DIRECTIVES;
  const ours = agent?.toLowerCase();
  let noindex = false;
  let nofollow = false;
  for (const value of typeof values === 'string' ? [values] : values) {
    let applies = true;
    for (const match of value.toLowerCase().matchAll(TOKEN)) {
      let rule = match[0];
      const colon = rule.indexOf(':');
      if (colon !== -1) {
        const name = rule.slice(0, colon);
        // `max-snippet:20`, or a piece of an `unavailable_after` date such as `15:00:00`.
        if (VALUED_RULES.has(name) || !AGENT_NAME.test(name)) continue;
        applies = name === ours;
        rule = rule.slice(colon + 1);
      }
      if (!applies) continue;
      if (rule === 'noindex' || rule === 'none') noindex = true;
      if (rule === 'nofollow' || rule === 'none') nofollow = true;
    }
  }
  return noindex || nofollow ? { noindex, nofollow } : NO_DIRECTIVES;
}
