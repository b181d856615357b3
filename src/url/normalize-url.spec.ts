import { describe, expect, it } from 'vitest';
import { normalizeUrl, rejectionOf } from './normalize-url.js';

const page = 'http://www.example.com/dir/page.html';

describe('normalizeUrl', () => {
  it.each([
    // [href, base, expected]: the rules of SPEC §4
    ['other.html', page, 'http://www.example.com/dir/other.html'],
    ['../up.html', page, 'http://www.example.com/up.html'],
    ['//cdn.example.com/x', 'https://www.example.com/', 'https://cdn.example.com/x'],
    ['?q=1', page, 'http://www.example.com/dir/page.html?q=1'],
    ['HTTP://WWW.Example.COM/Path', undefined, 'http://www.example.com/Path'],
    ['http://bücher.de/', undefined, 'http://xn--bcher-kva.de/'],
    ['http://example.com:80/', undefined, 'http://example.com/'],
    ['https://example.com:443/', undefined, 'https://example.com/'],
    ['http://example.com:443/', undefined, 'http://example.com:443/'],
    ['https://example.com:8443/a', undefined, 'https://example.com:8443/a'],
    ['http://example.com/a#section', undefined, 'http://example.com/a'],
    ['#top', page, page],
    ['http://example.com/a?', undefined, 'http://example.com/a'],
    ['http://example.com/a?#x', undefined, 'http://example.com/a'],
    ['http://example.com/a/./b/../c', undefined, 'http://example.com/a/c'],
    ['http://example.com/a/%2e%2E/c', undefined, 'http://example.com/c'],
    ['http://example.com/%7euser/%41%62%2d%5f%2E%30', undefined, 'http://example.com/~user/Ab-_.0'],
    ['http://example.com/a%2fb%3f%25%c3%a9?x=%3d%26%2b', undefined, 'http://example.com/a%2Fb%3F%25%C3%A9?x=%3D%26%2B'],
    ['http://example.com/q?x=%7E%41', undefined, 'http://example.com/q?x=~A'],
    ['http://example.com', undefined, 'http://example.com/'],
    ['http://example.com?a=1', undefined, 'http://example.com/?a=1'],
    ['  http://example.com/a b\n', undefined, 'http://example.com/a%20b'],
    ['http://example.com/a?b=1&b=2#c', undefined, 'http://example.com/a?b=1&b=2'],
    ['http://user:pw@example.com/', undefined, 'http://user:pw@example.com/'],
    ['http://0x7f.1/', undefined, 'http://127.0.0.1/'],
    ['http://[::1]:8080/', undefined, 'http://[::1]:8080/'],
  ] as const)('normalizes %j against %j', (href, base, expected) => {
    expect(normalizeUrl(href, base)).toBe(expected);
  });

  it.each([
    // [href, base]: junk and what the WHATWG parser rejects
    ['javascript:void(0)', page],
    ['mailto:jo@example.com', page],
    ['data:text/html,hi', page],
    ['tel:+30123', page],
    ['ftp://example.com/file', page],
    ['file:///etc/passwd', page],
    ['', page],
    ['   \t\n', page],
    ['/relative/only', undefined],
    ['http://exa mple.com/', undefined],
    ['http://example.com:99999/', undefined],
    ['http://[::1/', undefined],
    ['http:///', undefined],
    ['https://example%2Xcom/', undefined],
    [`http://${'a'.repeat(64)}.com/`, undefined],
    [`http://${'abcdefghi.'.repeat(26)}com/`, undefined],
  ] as const)('rejects %j against %j', (href, base) => {
    expect(normalizeUrl(href, base)).toBeUndefined();
  });

  it('accepts labels of 63 characters and hosts of 253', () => {
    const host = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(host.length).toBe(253);
    expect(normalizeUrl(`http://${host}/`)).toBe(`http://${host}/`);
  });

  it('takes a URL object as base', () => {
    expect(normalizeUrl('b', new URL('https://example.com/a/'))).toBe('https://example.com/a/b');
  });

  it.each([
    // [href, options, expected]
    ['http://x.com/?b=2&a=1&a=0', { sortQuery: true }, 'http://x.com/?a=1&a=0&b=2'],
    ['http://x.com/?b=2&a=1', {}, 'http://x.com/?b=2&a=1'],
    ['http://x.com/?q=tl;dr&a=x/y:z', { sortQuery: true }, 'http://x.com/?a=x/y:z&q=tl;dr'],
    ['http://x.com/?&&b&a', { sortQuery: true }, 'http://x.com/?a&b'],
    ['http://www.x.com/a', { stripWww: true }, 'http://x.com/a'],
    ['http://u:p@www.x.com/www.y', { stripWww: true }, 'http://u:p@x.com/www.y'],
    ['http://www.com/', { stripWww: true }, 'http://www.com/'],
    ['http://www2.x.com/', { stripWww: true }, 'http://www2.x.com/'],
    ['http://x.com/?utm_source=a&id=1&UTM_Medium=b&fbclid=z', { stripTracking: true }, 'http://x.com/?id=1'],
    ['http://x.com/?gclid=1&PHPSESSID=2&sid=3', { stripTracking: true }, 'http://x.com/'],
    ['http://x.com/a;jsessionid=0A1B?x=1', { stripTracking: true }, 'http://x.com/a?x=1'],
    ['http://x.com/?utm%5Fsource=a&x=%41', { stripTracking: true }, 'http://x.com/?x=A'],
    ['http://x.com/?x=1&&y=2', { stripTracking: true }, 'http://x.com/?x=1&&y=2'],
    [
      'https://www.x.com/p;jsessionid=9?z=1&utm_term=t&a=2#f',
      { sortQuery: true, stripWww: true, stripTracking: true },
      'https://x.com/p?a=2&z=1',
    ],
  ] as const)('with options normalizes %j (%j)', (href, opts, expected) => {
    expect(normalizeUrl(href, undefined, opts)).toBe(expected);
    expect(normalizeUrl(expected, undefined, opts)).toBe(expected);
  });
});

describe('rejectionOf', () => {
  it.each([
    ['javascript:void(0)', page, 'unsupported-scheme'],
    ['mailto:jo@example.com', undefined, 'unsupported-scheme'],
    ['http://exa mple.com/', undefined, 'invalid-url'],
    ['  ', page, 'invalid-url'],
    [`http://${'a'.repeat(64)}.com/`, undefined, 'invalid-url'],
  ] as const)('explains %j against %j as %s', (href, base, reason) => {
    expect(normalizeUrl(href, base)).toBeUndefined();
    expect(rejectionOf(href, base)).toBe(reason);
  });
});
