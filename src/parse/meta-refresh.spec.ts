import { describe, expect, it } from 'vitest';
import { refreshTarget } from './meta-refresh.js';

describe('refreshTarget', () => {
  it.each([
    ['5; url=next.html', 'next.html'],
    ['0;URL=http://a.gr/x', 'http://a.gr/x'],
    ["5; URL='/quoted page.html' trailing", '/quoted page.html'],
    ['3, url="double.html"', 'double.html'],
    ['0 url = spaced.html ', 'spaced.html'],
    ['1.5; bare.html', 'bare.html'],
    ['.5;url=dot.html', 'dot.html'],
    ['0; urls.html', 'urls.html'],
    ["0; url='unterminated.html", 'unterminated.html'],
  ])('reads %j as %j', (content, url) => {
    expect(refreshTarget(content)).toBe(url);
  });

  it.each([['30'], ['0;'], ['0; url='], ['soon; url=x.html'], ['5x; url=x.html'], ['']])(
    'finds no other page in %j',
    (content) => {
      expect(refreshTarget(content)).toBeUndefined();
    },
  );
});
