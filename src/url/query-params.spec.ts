import { describe, expect, it } from 'vitest';
import { rewriteQuery, stripPathSessionIds, TRACKING_PARAMS, withoutSessionIds } from './query-params.js';

describe('rewriteQuery', () => {
  it.each([
    // [query, sort, stripTracking, expected]
    ['b=2&a=1', true, false, 'a=1&b=2'],
    ['b=2&a=1', false, false, 'b=2&a=1'],
    ['a=2&b=0&a=1', true, false, 'a=2&a=1&b=0'],
    ['B=1&a=1&_=3', true, false, 'B=1&_=3&a=1'],
    ['b&a=&&c', true, false, 'a=&b&c'],
    ['q=c%2B%2B&p=a+b', true, false, 'p=a+b&q=c%2B%2B'],
    ['utm_source=a&x=1&Utm_Campaign=b&mtm_kwd=k', false, true, 'x=1'],
    ['fbclid=1&gclid=2&msclkid=3', false, true, ''],
    ['JSESSIONID=1&phpsessid=2&id=7&sid=3', false, true, 'id=7'],
    ['utmost=1&sidebar=2&session=3', false, true, 'utmost=1&sidebar=2&session=3'],
    ['x=1&&y=2', false, true, 'x=1&&y=2'],
    ['z=1&utm_medium=m&a', true, true, 'a&z=1'],
  ] as const)('rewrites %j (sort %s, strip %s) to %j', (query, sort, stripTracking, expected) => {
    expect(rewriteQuery(query, { sort, stripTracking })).toBe(expected);
  });

  it('lists names in lowercase, as they are compared', () => {
    for (const name of TRACKING_PARAMS) expect(name).toBe(name.toLowerCase());
  });
});

describe('stripPathSessionIds', () => {
  it.each([
    ['/shop/cart;jsessionid=0A1B2C', '/shop/cart'],
    ['/a;JSESSIONID=x/b', '/a/b'],
    ['/a;v=1;jsessionid=9;w=2', '/a;v=1;w=2'],
    ['/a;sessionid=1', '/a;sessionid=1'],
    ['/plain', '/plain'],
  ])('turns %s into %s', (path, expected) => {
    expect(stripPathSessionIds(path)).toBe(expected);
  });
});

describe('withoutSessionIds', () => {
  it.each([
    ['http://a.test/p?sid=8f3a&id=2', 'http://a.test/p?id=2'],
    ['http://a.test/p?SID=8f3a', 'http://a.test/p'],
    ['http://a.test/cart;jsessionid=0A1B?x=1&PHPSESSID=z', 'http://a.test/cart?x=1'],
    ['http://a.test/p?side=1&sids=2', 'http://a.test/p?side=1&sids=2'],
    ['http://a.test/plain', 'http://a.test/plain'],
  ])('%s is seen as %s', (url, key) => {
    expect(withoutSessionIds(url)).toBe(key);
  });
});
