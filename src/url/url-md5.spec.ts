import { describe, expect, it } from 'vitest';
import { urlMd5 } from './url-md5.js';

describe('urlMd5', () => {
  // Expected digests computed with coreutils md5sum over the same bytes.
  it.each([
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['abc', '900150983cd24fb0d6963f7d28e17f72'],
    ['http://www.ics.forth.gr/', '6de6317f8f13ce85eb94118d3ca0ee58'],
    ['é', '66ddcd97cfdeabb2f6fb8a999b4bc76f'],
  ])('hashes the UTF-8 bytes of %j', (url, md5) => {
    expect(urlMd5(url)).toBe(md5);
  });
});
