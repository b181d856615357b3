import { describe, expect, it } from 'vitest';
import { escapePattern, robotsPath } from './match-path.js';

describe('robotsPath', () => {
  it.each([
    ['http://foo.bar/x/y?q=1#frag', '/x/y?q=1'],
    ['https://foo.bar', '/'],
    ['https://foo.bar?q', '/?q'],
    ['https://user@foo.bar:8080/p', '/p'],
    ['//foo.bar/p', '/p'],
    ['/p?u=http://x.y/z', '/p?u=http://x.y/z'],
    ['p?u=http://x.y/z', '/p?u=http://x.y/z'],
    ['', '/'],
    ['#top', '/'],
    ['/a/%7eb/%E3%83%84/%e3', '/a/~b/%E3%83%84/%E3'],
    ['/%7Ejoe/%2d%2E%5f/x%2fy/%62', '/~joe/-._/x%2Fy/%62'],
    ['/100%/%zz', '/100%/%zz'],
    ['/foo/bar/ツ', '/foo/bar/ツ'],
  ])('%j → %j', (url, path) => {
    expect(robotsPath(url)).toBe(path);
  });

  it('returns the very same string when nothing needs changing', () => {
    const path = '/already/clean?x=%2F~';
    expect(robotsPath(path)).toBe(path);
  });
});

describe('escapePattern', () => {
  it.each([
    ['/foo/bar/ツ', '/foo/bar/%E3%83%84'],
    ['/é/😀*$', '/%C3%A9/%F0%9F%98%80*$'],
    ['/%e3%83%84', '/%E3%83%84'],
    ['/foo/bar/%62%61%7A', '/foo/bar/%62%61%7A'],
    ['/%7Ejoe/', '/~joe/'],
    ['/~joe/%7e', '/~joe/~'],
    ['/plain', '/plain'],
  ])('%j → %j', (pattern, escaped) => {
    expect(escapePattern(pattern)).toBe(escaped);
  });
});
