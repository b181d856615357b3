import { describe, expect, it } from 'vitest';
import { normalizeUrl } from './normalize-url.js';
import { hostKey, originOf, urlParts } from './url-parts.js';

describe('originOf and hostKey', () => {
  it.each([
    'http://www.example.com/',
    'https://www.example.com:8443/a/b?c=d/e@f',
    'http://jo:p%40ss@example.com/x@y',
    'http://jo@[::1]:8080/',
    'http://127.0.0.1:3000/a/',
    'http://xn--bcher-kva.de/?q=//x',
  ])('agree with the URL parser on %s', (href) => {
    const url = new URL(href);
    expect(normalizeUrl(href)).toBe(href);
    expect(originOf(href)).toBe(url.origin);
    expect(hostKey(href)).toBe(url.host);
  });
});

describe('urlParts', () => {
  it.each([
    'http://www.example.com/',
    'https://a.b.example.com:8443/x/y.html?q=1',
    'http://[::1]:81/a?q',
    'http://[2001:db8::1]/p/',
    'http://127.0.0.1:8080/x%2Fy',
    'http://xn--caf-dma.example/%C3%A9?a=b',
  ])('gives %s the hostname, origin and pathname URL gives it', (normalized) => {
    const url = new URL(normalized);
    expect(urlParts(normalized)).toEqual({ hostname: url.hostname, origin: url.origin, pathname: url.pathname });
  });
});
