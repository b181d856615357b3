import { describe, expect, it } from 'vitest';
import { normalizePercentEscapes } from './percent-escapes.js';

describe('normalizePercentEscapes', () => {
  it.each([
    ['/%41%5A%61%7A%30%39', '/AZaz09'],
    ['/%2D%2E%5F%7E%2d%2e%5f%7e', '/-._~-._~'],
    ['/%2f%3f%23%25%26%3d%2b%20%40', '/%2F%3F%23%25%26%3D%2B%20%40'],
    ['/%c3%a9%E2%82%ac', '/%C3%A9%E2%82%AC'],
    ['/%zz%4%', '/%zz%4%'],
    ['/%%41', '/%A'],
    ['/%2541', '/%2541'],
    ['/a%4', '/a%4'],
    ['/%4g%41', '/%4gA'],
    ['%41', 'A'],
  ])('turns %s into %s', (input, expected) => {
    expect(normalizePercentEscapes(input)).toBe(expected);
  });

  it('returns the very same string when there is nothing to change', () => {
    const s = `http://x.com/a%2Fb%C3%A9?q=%3D${'x'.repeat(10)}`;
    expect(normalizePercentEscapes(s)).toBe(s);
  });
});
