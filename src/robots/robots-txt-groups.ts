import { escapePattern } from './match-path.js';
import type { RuleSpec } from './match-rules.js';
import type { RobotsLine } from './robots-txt-lines.js';

/** Everything the robots.txt says to one product token, all its groups merged. */
export interface GroupSpec {
  readonly rules: RuleSpec[];
  crawlDelay: number | undefined;
}

/** A parsed robots.txt before compilation: groups by lower-case product token (`*` = global). */
export interface RobotsTxtSpec {
  readonly groups: ReadonlyMap<string, GroupSpec>;
  readonly sitemaps: readonly string[];
}

/**
 * The product token of a user-agent string, lower-cased: everything before the first `/` or
 * space. Used for the crawler's own user agent and for `User-agent:` values alike, so a line
 * `User-agent: Foo Bar` (Google reads it as `Foo`) and a crawler `foo/1.2 (+url)` meet.
 *
 * @example
 * productToken('tarantula/0.1.0 (+https://example.com/bot)') //=> 'tarantula'
 * productToken('*') //=> '*'
 */
export function productToken(userAgent: string): string {
  let a = 0;
  while (a < userAgent.length && isSpace(userAgent.charCodeAt(a))) a++;
  let b = a;
  while (b < userAgent.length && !isSpace(userAgent.charCodeAt(b)) && userAgent.charCodeAt(b) !== 0x2f) b++;
  return userAgent.slice(a, b).toLowerCase();
}

/**
 * Groups robots.txt lines as RFC 9309 §2.1 says: a group is one or more `User-agent` lines then
 * the rules up to the next `User-agent` line that follows a rule; rules before any `User-agent`
 * are ignored; groups naming the same token are merged. `Crawl-delay` is a group member like a
 * rule (the largest value given to a token wins); `Sitemap` lines stand outside groups.
 * Empty patterns (`Disallow:`) are dropped: they restrict nothing.
 *
 * @example
 * groupRobotsLines([{ key: 'user-agent', value: 'a' }, { key: 'user-agent', value: 'b' }, { key: 'disallow', value: '/x' }])
 * //=> { groups: Map { 'a' => { rules: [Disallow /x] }, 'b' => { rules: [Disallow /x] } }, sitemaps: [] }
 */
export function groupRobotsLines(lines: Iterable<RobotsLine>): RobotsTxtSpec {
  const groups = new Map<string, GroupSpec>();
  const sitemaps = new Set<string>();
  let current: GroupSpec[] = [];
  let readingAgents = false;
  for (const { key, value } of lines) {
    if (key === 'sitemap') {
      if (value !== '') sitemaps.add(value);
      continue;
    }
    if (key === 'user-agent') {
      if (!readingAgents) current = [];
      readingAgents = true;
      const token = productToken(value);
      if (token === '') continue;
      let group = groups.get(token);
      if (group === undefined) groups.set(token, (group = { rules: [], crawlDelay: undefined }));
      if (!current.includes(group)) current.push(group);
      continue;
    }
    readingAgents = false;
    if (key === 'crawl-delay') {
      const seconds = Number.parseFloat(value);
      if (!(seconds >= 0) || !Number.isFinite(seconds)) continue;
      for (const group of current) group.crawlDelay = Math.max(group.crawlDelay ?? 0, seconds);
    } else if (value !== '') {
      for (const rule of rulesOf(key === 'allow', escapePattern(value))) {
        for (const group of current) group.rules.push(rule);
      }
    }
  }
  return { groups, sitemaps: [...sitemaps] };
}

// Google reads `Allow: /dir/index.html` as also allowing `/dir/` itself (the page a server
// answers for the directory); only Allow, and only for index.htm(l).
function rulesOf(allow: boolean, pattern: string): RuleSpec[] {
  const rule = { allow, pattern };
  const slash = pattern.lastIndexOf('/');
  const file = pattern.slice(slash + 1);
  if (!allow || slash < 0 || (file !== 'index.html' && file !== 'index.htm')) return [rule];
  return [rule, { allow, pattern: `${pattern.slice(0, slash + 1)}$` }];
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09;
}
