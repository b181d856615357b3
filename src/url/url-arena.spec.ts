import { describe, expect, it } from 'vitest';
import { UrlArena } from './url-arena.js';

describe('UrlArena', () => {
  it('gives back every URL by its id, across growths of both its buffers, an empty one and a long one among them', () => {
    const urls = new UrlArena();
    const added = ['', 'x'.repeat(100_000), ...Array.from({ length: 5000 }, (_, i) => `http://h${i}.test/p/${i}.html`)];
    expect(added.map((u) => urls.add(u))).toEqual(added.map((_, i) => i));
    expect(added.map((_, i) => urls.get(i))).toEqual(added);
    expect(urls.size).toBe(added.length);
  });
});
