/** The code of an error from a store that refuses everything after a failed write (the WARC series). */
export const NO_ROOM = 'no-room';

/**
 * Error codes that say the repository can take no more, whatever is written next: a full disk or
 * quota, a file-size limit, a file system mounted read-only, or a store that stopped at a failed
 * write ({@link NO_ROOM}). A page that meets one is not a failure of the page: it stays pending, and
 * the crawl stops.
 */
const CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS', NO_ROOM]);

/**
 * @example
 * noRoom('ENOSPC') //=> true; noRoom('ENOENT') //=> false
 */
export const noRoom = (code: string | undefined): boolean => code !== undefined && CODES.has(code);
