import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CrawlLogger } from '../log/create-logger.js';
import { STATE_DIR } from '../state/crawl-state.js';

/** Where a token made at start is kept, in the repository's state folder. */
export const TOKEN_FILE = 'serve-token';

/**
 * The control API's bearer token: the first line of `serve-token-file`, or, without one, a new
 * random token written to `REPOSITORY/.tarantula/serve-token` (mode 0600) and logged once, on
 * stderr, so that whoever started the crawl can steer it.
 *
 * @example
 * await serveToken(undefined, 'out', log) //=> 'k3J…' (and out/.tarantula/serve-token holds it)
 */
export async function serveToken(tokenFile: string | undefined, repository: string, log: CrawlLogger): Promise<string> {
  // Checked when the configuration was read: readable, its first line not empty.
  if (tokenFile !== undefined) return (await readFile(tokenFile, 'utf8')).split(/\r?\n/, 1)[0]!.trim();
  const token = randomBytes(24).toString('base64url');
  const dir = join(repository, STATE_DIR);
  const path = join(dir, TOKEN_FILE);
  await mkdir(dir, { recursive: true });
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  // A file left by an earlier run keeps its mode on a rewrite.
  await chmod(path, 0o600);
  log.info({ tokenFile: path }, `control API token: ${token}`);
  return token;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * Checks an `Authorization` header against the token in constant time (both sides hashed first,
 * so that neither the token's length nor its first differing byte shows in the time taken).
 *
 * @example
 * const check = bearerCheck('s3cret'); check('Bearer s3cret') //=> 'ok'; check(undefined) //=> 'missing'
 */
export function bearerCheck(token: string): (header: string | undefined) => 'ok' | 'missing' | 'wrong' {
  const expected = digest(token);
  return (header) => {
    const m = /^Bearer +(\S+) *$/i.exec(header ?? '');
    if (m === null) return 'missing';
    return timingSafeEqual(digest(m[1]!), expected) ? 'ok' : 'wrong';
  };
}
