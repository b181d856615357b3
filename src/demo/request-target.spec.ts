import { describe, expect, it } from 'vitest';
import { originForm, parseHost, parseTarget } from './request-target.js';

describe('parseHost', () => {
  it.each([
    ['www.tarantula.test', 'www.tarantula.test'],
    ['DOCS.Tarantula.TEST:8080', 'docs.tarantula.test'],
    ['blog.tarantula.test.', 'blog.tarantula.test'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['xn--bcher-kva.test', 'xn--bcher-kva.test'],
  ])('reads %s as %s', (header, host) => {
    expect(parseHost(header)).toBe(host);
  });

  it.each([undefined, '', '..', '.', 'a..b', '.hidden', 'a/b', 'a\\b', '[::1]:80', 'a b', 'a%2e'])(
    'refuses %s, which could not be a folder name of the root',
    (header) => {
      expect(parseHost(header)).toBeUndefined();
    },
  );
});

describe('originForm', () => {
  it('splits an absolute-form target into authority and path', () => {
    expect(originForm('http://Blog.tarantula.test:80/feed.xml?x')).toEqual({ authority: 'Blog.tarantula.test:80', target: '/feed.xml?x' });
    expect(originForm('http://a.test')).toEqual({ authority: 'a.test', target: '/' });
    expect(originForm('/plain?q')).toEqual({ target: '/plain?q' });
  });
});

describe('parseTarget', () => {
  it('decodes the segments and keeps the raw query', () => {
    expect(parseTarget('/guide/advanced/?x=%2F1')).toEqual({
      segments: ['guide', 'advanced'],
      path: '/guide/advanced/',
      trailingSlash: true,
      query: 'x=%2F1',
    });
    expect(parseTarget('/caf%C3%A9%20menu.html')?.segments).toEqual(['café menu.html']);
    expect(parseTarget('/')).toEqual({ segments: [], path: '/', trailingSlash: true, query: undefined });
    expect(parseTarget('/p?')?.query).toBe('');
  });

  it('merges empty segments', () => {
    expect(parseTarget('//a///b')?.path).toBe('/a/b');
  });

  it.each([
    '/../x',
    '/a/../../x',
    '/./x',
    '/%2e%2e/x',
    '/%2E%2e/x',
    '/%2e/x',
    '/a%2f..%2f..%2fx',
    '/..%5cx',
    '/..\\x',
    '/a%00b',
    '/%E0%A4%A',
    '*',
    'x',
  ])('refuses %s', (raw) => {
    expect(parseTarget(raw)).toBeUndefined();
  });
});
