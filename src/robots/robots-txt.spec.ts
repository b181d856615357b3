import { describe, expect, it } from 'vitest';
import { expandRobotsTxt, parseRobotsTxt, parseRobotsTxtFor, productToken, RobotsTxt, ROBOTS_TXT_MAX_BYTES } from './robots-txt.js';

const UA = 'tarantula/0.1.0 (+https://example.com/bot)';

// RFC 9309 §5.1, verbatim.
const RFC_SIMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

describe('parseRobotsTxt: RFC 9309 examples', () => {
  const robots = parseRobotsTxt(RFC_SIMPLE);
  it.each([
    ['foobot', '/example/page.html', true],
    ['foobot', '/example/allowed.gif', true],
    ['foobot', '/example/other.html', false],
    ['foobot', '/', false],
    ['barbot', '/example/page.html', false],
    ['bazbot', '/example/page.html', false],
    ['bazbot', '/example/page.htm', true],
    ['quxbot', '/example/page.html', true],
    ['quxbot', '/anything.gif', true],
    ['otherbot', '/a/b.gif', false],
    ['otherbot', '/a/b.gif?x', true],
    ['otherbot', '/example/', false],
    ['otherbot', '/publications/x', true],
  ])('§5.1: %s on %s is allowed: %s', (agent, path, allowed) => {
    expect(robots.isAllowed(path, agent)).toBe(allowed);
  });

  it('§5.2: the longest match wins whatever the order of the lines', () => {
    const longest = parseRobotsTxt('User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n');
    expect(longest.isAllowed('/example/page/', 'foobot')).toBe(true);
    expect(longest.isAllowed('/example/page/disallowed.gif', 'foobot')).toBe(false);
  });

  it('§2.2.3: # comments, $ end anchor and * wildcard', () => {
    const robots = parseRobotsTxt('user-agent: *\ndisallow: / # all\nallow: /this/path/exactly$\nallow: /that/*/exactly\n');
    expect(robots.isAllowed('/this/path/exactly', UA)).toBe(true);
    expect(robots.isAllowed('/this/path/exactly/not', UA)).toBe(false);
    expect(robots.isAllowed('/that/any/thing/exactly', UA)).toBe(true);
    expect(robots.isAllowed('/that/exactly', UA)).toBe(false);
  });

  it('§2.2.2: paths match byte for byte after escaping non-ASCII in rules', () => {
    const robots = parseRobotsTxt('user-agent: *\ndisallow: /\nallow: /foo/bar/ツ\nallow: /%7e\n');
    expect(robots.isAllowed('https://example.com/foo/bar/%E3%83%84', UA)).toBe(true);
    expect(robots.isAllowed(new URL('https://example.com/foo/bar/ツ').href, UA)).toBe(true);
    expect(robots.isAllowed('https://example.com/%7Ebob', UA)).toBe(true);
    expect(robots.isAllowed('https://example.com/%7ebob', UA)).toBe(true);
  });

  it('an empty Disallow allows everything, and /robots.txt is always allowed', () => {
    expect(parseRobotsTxt('User-agent: *\nDisallow:\n').isAllowed('/x', UA)).toBe(true);
    const closed = parseRobotsTxt('User-agent: *\nDisallow: /\n');
    expect(closed.isAllowed('https://example.com/robots.txt', UA)).toBe(true);
    expect(closed.isAllowed('https://example.com/robots.txt.bak', UA)).toBe(false);
  });
});

describe('RobotsTxt: group selection', () => {
  it.each([
    [UA, 'tarantula'],
    ['  TaRaNtUlA  extra', 'tarantula'],
    ['Mozilla/5.0 (compatible; tarantula/1.0)', 'mozilla'],
    ['*', '*'],
    ['', ''],
  ])('productToken(%j) is %j', (agent, token) => {
    expect(productToken(agent)).toBe(token);
  });

  it('matches the product token of the crawler user agent, case-insensitively', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /\n\nUser-agent: TARANTULA/2.0\nDisallow: /private\n');
    expect(robots.isAllowed('/public', UA)).toBe(true);
    expect(robots.isAllowed('/private', UA)).toBe(false);
    expect(robots.isAllowed('/public', 'otherbot/1.0')).toBe(false);
  });

  it('merges every group that names the agent, and ignores the * group then', () => {
    const robots = parseRobotsTxt(
      'user-agent: tarantula\ndisallow: /foo\n\nuser-agent: *\ndisallow: /bar\n\nuser-agent: Tarantula\ndisallow: /baz\n',
    );
    expect(['/foo', '/bar', '/baz'].map((p) => robots.isAllowed(p, UA))).toEqual([false, true, false]);
    expect(['/foo', '/bar', '/baz'].map((p) => robots.isAllowed(p, 'other'))).toEqual([true, false, true]);
  });

  it('gives consecutive User-agent lines one shared group, and ignores rules before any', () => {
    const robots = parseRobotsTxt('Disallow: /early\nUser-agent: a\n\nUser-agent: tarantula\nDisallow: /shared\n');
    expect(robots.isAllowed('/shared', 'a')).toBe(false);
    expect(robots.isAllowed('/shared', UA)).toBe(false);
    expect(robots.isAllowed('/early', UA)).toBe(true);
  });

  it('allows everything when no group applies', () => {
    expect(parseRobotsTxt('User-agent: otherbot\nDisallow: /\n').isAllowed('/', UA)).toBe(true);
    expect(parseRobotsTxt('').isAllowed('/', UA)).toBe(true);
  });

  it('answers for each user agent in turn, not just the first one asked', () => {
    const robots = parseRobotsTxt('User-agent: a\nDisallow: /\nUser-agent: b\nAllow: /\n');
    expect([robots.isAllowed('/x', 'a'), robots.isAllowed('/x', 'b'), robots.isAllowed('/x', 'a')]).toEqual([false, true, false]);
  });
});

describe('RobotsTxt: crawl-delay, sitemaps and fixed answers', () => {
  it('reads Crawl-delay from the selected group only', () => {
    const robots = parseRobotsTxt('User-agent: *\nCrawl-delay: 10\n\nUser-agent: tarantula\nCrawl-delay: 2.5\nDisallow: /x\n');
    expect(robots.crawlDelaySeconds(UA)).toBe(2.5);
    expect(robots.crawlDelaySeconds('other')).toBe(10);
    expect(parseRobotsTxt('User-agent: tarantula\nDisallow: /x\n').crawlDelaySeconds(UA)).toBeUndefined();
  });

  it('takes the largest Crawl-delay of merged groups and skips unreadable ones', () => {
    const robots = parseRobotsTxt('User-agent: tarantula\nCrawl-delay: 3\nCrawl-delay: soon\nUser-agent: tarantula\nCrawl-delay: 7\n');
    expect(robots.crawlDelaySeconds(UA)).toBe(7);
    expect(parseRobotsTxt('User-agent: *\nCrawl-delay: -1\n').crawlDelaySeconds(UA)).toBeUndefined();
  });

  it('a Crawl-delay line ends a run of User-agent lines, as a rule does', () => {
    const robots = parseRobotsTxt('User-agent: a\nCrawl-delay: 5\nUser-agent: tarantula\nDisallow: /\n');
    expect(robots.isAllowed('/x', 'a')).toBe(true);
    expect(robots.crawlDelaySeconds(UA)).toBeUndefined();
  });

  it('collects Sitemap lines from anywhere, in order, without duplicates', () => {
    const robots = parseRobotsTxt(
      'Sitemap: https://e.com/a.xml\nUser-agent: x\nsitemap: https://e.com/b.xml\nDisallow: /\nSITEMAP: https://e.com/a.xml\n',
    );
    expect(robots.sitemaps).toEqual(['https://e.com/a.xml', 'https://e.com/b.xml']);
    expect(robots.isAllowed('/y', 'x')).toBe(false);
  });

  it('allowAll and disallowAll answer the same for every URL', () => {
    for (const url of ['/', '/robots.txt', 'https://e.com/a?b']) {
      expect(RobotsTxt.allowAll().isAllowed(url, UA)).toBe(true);
      expect(RobotsTxt.disallowAll().isAllowed(url, UA)).toBe(false);
    }
    expect(RobotsTxt.disallowAll().crawlDelaySeconds(UA)).toBeUndefined();
    expect(RobotsTxt.allowAll().sitemaps).toEqual([]);
  });
});

describe('parseRobotsTxt: the 500 KiB limit', () => {
  const head = 'User-agent: *\nDisallow: /early\n';
  const padTo = (size: number): string => `${head}#${'x'.repeat(size - head.length - 2)}\n`;

  it('ignores a rule after the first 500 KiB, in bytes and in strings', () => {
    const text = `${padTo(ROBOTS_TXT_MAX_BYTES)}Disallow: /late\n`;
    for (const body of [text, new TextEncoder().encode(text)]) {
      const robots = parseRobotsTxt(body);
      expect(robots.isAllowed('/early', UA)).toBe(false);
      expect(robots.isAllowed('/late', UA)).toBe(true);
    }
  });

  it('keeps a rule that ends exactly at the limit and drops one cut by it', () => {
    const rule = 'Disallow: /edge\n';
    const exact = parseRobotsTxt(`${padTo(ROBOTS_TXT_MAX_BYTES - rule.length)}${rule}more`);
    expect(exact.isAllowed('/edge', UA)).toBe(false);
    // Cut to "Allow: /early" the line would tie with the Disallow and win; it must be dropped whole.
    const cut = parseRobotsTxt(`${padTo(ROBOTS_TXT_MAX_BYTES - 'Allow: /early'.length)}Allow: /early-bird\n`);
    expect(cut.isAllowed('/early', UA)).toBe(false);
  });

  it('counts the limit in UTF-8 bytes, not characters', () => {
    const text = `${padTo(ROBOTS_TXT_MAX_BYTES - 100_000)}#${'é'.repeat(60_000)}\nDisallow: /late\n`;
    expect(parseRobotsTxt(text).isAllowed('/late', UA)).toBe(true);
  });
});

describe('RobotsTxt: escaped unreserved characters (RFC 9309 §2.2.2)', () => {
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /%7Ejoe/\nDisallow: /~bob/\nDisallow: /a%2db\nDisallow: /%62%61%7A\n');

  it.each([
    ['/~joe/index.html', false],
    ['/%7Ejoe/index.html', false],
    ['/%7ejoe/index.html', false],
    ['/~bob/', false],
    ['/%7Ebob/x', false],
    ['/a-b', false],
    ['/%7Eann/', true],
    ['/~ann/', true],
    // Escaped letters stay exact, as the conformance vectors want (non-ascii-paths#4.1).
    ['/baz', true],
    ['/%62%61%7A', false],
  ])('%s allowed: %s', (path, allowed) => {
    expect(robots.isAllowed(`http://h.test${path}`, 'tarantula')).toBe(allowed);
  });
});

describe('parseRobotsTxtFor and expandRobotsTxt', () => {
  const AGENT = 'tarantula/1.0';

  it('keeps what the file says to one agent, and reads it back to the same answers', () => {
    const body = 'User-agent: *\nDisallow: /\n\nUser-agent: tarantula\nDisallow: /private/\nAllow: /private/*.css$\nAllow: /docs/index.html\nCrawl-delay: 1.5\nSitemap: https://a.test/s.xml\n';
    const { rules, compact } = parseRobotsTxtFor(body, AGENT);
    expect(rules.sitemaps).toEqual(['https://a.test/s.xml']);
    const back = expandRobotsTxt(compact);
    for (const path of ['/', '/private/x', '/private/a.css', '/private/a.css?x', '/docs/', '/docs/other', '/robots.txt', '/ünï']) {
      expect(back.isAllowed(path, AGENT), path).toBe(rules.isAllowed(path, AGENT));
    }
    expect(back.crawlDelaySeconds(UA)).toBe(1.5);
    expect(back.sitemaps).toEqual([]);
  });

  it('takes the * group when none names the agent, and says nothing for a file with no rule for it', () => {
    expect(parseRobotsTxtFor('User-agent: *\nDisallow: /x\n', AGENT).compact).toBe('\nD/x');
    expect(parseRobotsTxtFor('User-agent: other\nDisallow: /\n', AGENT).compact).toBe('');
    expect(parseRobotsTxtFor('', AGENT).compact).toBe('');
    expect(expandRobotsTxt('').isAllowed('/anything', AGENT)).toBe(true);
    expect(expandRobotsTxt('').crawlDelaySeconds(UA)).toBeUndefined();
  });
});
