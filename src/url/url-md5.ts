import { createHash } from 'node:crypto';

/**
 * The MD5 of a normalized URL's UTF-8 bytes, as 32 lowercase hex digits: the first field of an
 * index record (SPEC §6) and the collision suffix of mirror paths.
 *
 * @example
 * urlMd5('http://www.ics.forth.gr/'); //=> '6de6317f8f13ce85eb94118d3ca0ee58'
 */
export function urlMd5(normalized: string): string {
  return createHash('md5').update(normalized, 'utf8').digest('hex');
}
