/**
 * Error codes that say the repository can take no more, whatever is written next: a full disk or
 * quota, a file-size limit, a file system mounted read-only. A page that meets one is not a failure
 * of the page: it stays pending, and the crawl stops.
 */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS']);

/**
 * @example
 * noRoom('ENOSPC') //=> true; noRoom('ENOENT') //=> false
 */
export const noRoom = (code: string | undefined): boolean => code !== undefined && NO_ROOM.has(code);
