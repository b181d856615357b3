import { robotsPath } from './match-path.js';
import { compileRules, type RuleMatcher } from './match-rules.js';
import { groupRobotsLines, productToken, type GroupSpec, type RobotsTxtSpec } from './robots-txt-groups.js';
import { decodeRobotsTxt, robotsTxtLines } from './robots-txt-lines.js';

export { ROBOTS_TXT_MAX_BYTES } from './robots-txt-lines.js';
export { productToken } from './robots-txt-groups.js';

interface CompiledGroup {
  readonly rules: RuleMatcher;
  readonly crawlDelay: number | undefined;
}

/**
 * A parsed robots.txt, answering RFC 9309 questions for a crawler. Build one with
 * `parseRobotsTxt`, or take `RobotsTxt.allowAll()` (robots.txt answered 4xx) or
 * `RobotsTxt.disallowAll()` (5xx or unreachable). Immutable apart from a one-entry cache of the
 * last user agent's group, which is all a crawler with one user agent ever needs.
 */
export class RobotsTxt {
  private static readonly ALLOW_ALL = new RobotsTxt(new Map(), [], true);
  private static readonly DISALLOW_ALL = new RobotsTxt(new Map(), [], false);

  private lastAgent: string | undefined;
  private lastGroup: CompiledGroup | undefined;

  private constructor(
    private readonly groups: ReadonlyMap<string, CompiledGroup>,
    /** `Sitemap:` URLs in file order, duplicates removed, whichever group they stood in. */
    readonly sitemaps: readonly string[],
    private readonly verdict?: boolean,
  ) {}

  /** Compiles the output of `groupRobotsLines` (what `parseRobotsTxt` does after reading). */
  static fromSpec(spec: RobotsTxtSpec): RobotsTxt {
    const groups = new Map<string, CompiledGroup>();
    for (const [token, { rules, crawlDelay }] of spec.groups) {
      groups.set(token, { rules: compileRules(rules), crawlDelay });
    }
    return new RobotsTxt(groups, spec.sitemaps);
  }

  /** Everything allowed, no crawl delay: RFC 9309 §2.3.1.3 for a robots.txt answering 4xx. */
  static allowAll(): RobotsTxt {
    return RobotsTxt.ALLOW_ALL;
  }

  /** Everything disallowed, `/robots.txt` included: RFC 9309 §2.3.1.4 for 5xx or no answer. */
  static disallowAll(): RobotsTxt {
    return RobotsTxt.DISALLOW_ALL;
  }

  /**
   * Whether `userAgent` may fetch `url` (absolute, or a path with query; see `robotsPath`). The
   * group is chosen by the agent's product token (case-insensitive), else the `*` group; within
   * it the longest matching pattern decides and Allow wins a tie; no match means allowed.
   * `/robots.txt` is always allowed in a parsed file.
   *
   * @example
   * parseRobotsTxt('User-agent: *\nDisallow: /private').isAllowed('https://example.com/private/a', 'tarantula/1.0') //=> false
   */
  isAllowed(url: string, userAgent: string): boolean {
    if (this.verdict !== undefined) return this.verdict;
    const rules = this.groupFor(userAgent)?.rules;
    // Nothing disallowed (no rule, or only Allow rules such as `Allow: /`): the path is not even read.
    if (rules === undefined || rules.allowsAll) return true;
    const path = robotsPath(url);
    if (path === '/robots.txt' || path.startsWith('/robots.txt?')) return true;
    return rules.decide(path) ?? true;
  }

  /**
   * The `Crawl-delay` in seconds that the group chosen for `userAgent` asks for (the largest, if
   * its merged groups give several), or undefined.
   *
   * @example
   * parseRobotsTxt('User-agent: tarantula\nCrawl-delay: 2.5').crawlDelaySeconds('tarantula/1.0') //=> 2.5
   */
  crawlDelaySeconds(userAgent: string): number | undefined {
    return this.groupFor(userAgent)?.crawlDelay;
  }

  private groupFor(userAgent: string): CompiledGroup | undefined {
    if (userAgent !== this.lastAgent) {
      const token = productToken(userAgent);
      this.lastGroup = this.groups.get(token) ?? this.groups.get('*');
      this.lastAgent = userAgent;
    }
    return this.lastGroup;
  }
}

/**
 * Parses a robots.txt body (bytes as served, or text) per RFC 9309: only the first 500 KiB,
 * UTF-8 with or without BOM, CR/LF/CRLF line ends, `#` comments, case-insensitive keys, Google's
 * accepted typos and missing colons. See `RobotsTxt` for the questions it answers.
 *
 * @example
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /\nAllow: /$\nSitemap: https://example.com/s.xml');
 * robots.isAllowed('/', 'tarantula/1.0') //=> true
 * robots.isAllowed('/page', 'tarantula/1.0') //=> false
 * robots.sitemaps //=> ['https://example.com/s.xml']
 */
export function parseRobotsTxt(body: Uint8Array | string): RobotsTxt {
  return RobotsTxt.fromSpec(groupRobotsLines(robotsTxtLines(decodeRobotsTxt(body))));
}

/**
 * Parses a robots.txt body as {@link parseRobotsTxt} does, and also gives what it says to
 * `userAgent` alone as a short string (its group's Crawl-delay and rules, no sitemaps, no other
 * agent's group): the form a cache keeps of a host it is not crawling now, the empty string for
 * most hosts (no rule for anyone, or none for this agent). {@link expandRobotsTxt} reads it back.
 *
 * @example
 * const { compact } = parseRobotsTxtFor('User-agent: *\nDisallow: /private\nSitemap: https://a.test/s.xml', 'tarantula/1.0');
 * compact //=> '\nD/private'
 * expandRobotsTxt(compact).isAllowed('/private/x', 'tarantula/1.0') //=> false
 */
export function parseRobotsTxtFor(body: Uint8Array | string, userAgent: string): { readonly rules: RobotsTxt; readonly compact: string } {
  const spec = groupRobotsLines(robotsTxtLines(decodeRobotsTxt(body)));
  return { rules: RobotsTxt.fromSpec(spec), compact: compactGroup(spec.groups.get(productToken(userAgent)) ?? spec.groups.get('*')) };
}

function compactGroup(group: GroupSpec | undefined): string {
  if (group === undefined) return '';
  let out = group.crawlDelay === undefined ? '' : String(group.crawlDelay);
  // A pattern holds no line end (robots.txt is read line by line): one separates the rules.
  for (const rule of group.rules) out += `\n${rule.allow ? 'A' : 'D'}${rule.pattern}`;
  return out;
}

/**
 * The rules of a compact string from {@link parseRobotsTxtFor}, for the agent it was made for: its
 * group stands as the `*` group, which every agent then gets.
 *
 * @example
 * expandRobotsTxt('2.5').crawlDelaySeconds('tarantula/1.0') //=> 2.5
 */
export function expandRobotsTxt(compact: string): RobotsTxt {
  if (compact === '') return RobotsTxt.allowAll();
  const [delay, ...rules] = compact.split('\n');
  const group: GroupSpec = {
    crawlDelay: delay === '' ? undefined : Number(delay),
    rules: rules.map((r) => ({ allow: r.charCodeAt(0) === 0x41, pattern: r.slice(1) })),
  };
  return RobotsTxt.fromSpec({ groups: new Map([['*', group]]), sitemaps: [] });
}
