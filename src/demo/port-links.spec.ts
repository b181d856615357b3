import { describe, expect, it } from 'vitest';
import { portLinks } from './port-links.js';

describe('portLinks', () => {
  const add = portLinks(['www.a.test', 'docs.a.test'], 4321);

  it.each([
    ['<a href="http://www.a.test/">', '<a href="http://www.a.test:4321/">'],
    ['<a href="http://WWW.A.Test/x">', '<a href="http://WWW.A.Test:4321/x">'],
    ['<a href="http://docs.a.test:80/x">', '<a href="http://docs.a.test:4321/x">'],
    ['http://docs.a.test', 'http://docs.a.test:4321'],
    ['<base href="http://docs.a.test?q">', '<base href="http://docs.a.test:4321?q">'],
    ['<a href=http://www.a.test>x</a>', '<a href=http://www.a.test:4321>x</a>'],
    ['<link>http://www.a.test/feed</link>', '<link>http://www.a.test:4321/feed</link>'],
  ])('gives the port to %s', (text, expected) => {
    expect(add(text)).toBe(expected);
  });

  it.each([
    'http://docs.a.test:8080/x',
    'http://docs.a.test.evil/',
    'http://docs.a.testing/',
    'http://other.test/',
    'https://www.a.test/',
    'http://sub.www.a.test/',
    '/relative/path',
  ])('leaves %s alone', (text) => {
    expect(add(text)).toBe(text);
  });

  it('rewrites every link in a longer text, and nothing when there are no hosts', () => {
    expect(add('http://www.a.test/ and http://docs.a.test/')).toBe('http://www.a.test:4321/ and http://docs.a.test:4321/');
    expect(portLinks([], 1)('http://www.a.test/')).toBe('http://www.a.test/');
  });
});
