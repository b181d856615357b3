import { createHash } from 'node:crypto';

/**
 * Characters never written raw into a mirror name: controls, space, non-ASCII, `/` and `\`, and the
 * characters Windows refuses (`"*:<>?|`), so a repository copies between systems unchanged. `#` is
 * here too although no URL path holds it raw: it marks the store's temporary files, which can
 * therefore never collide with a mirror name.
 */
const UNSAFE = /[\x00-\x20"#*/:<>?\\|\x7f-\u{10ffff}]/gu;
const HTML_EXT = /\.html?$/i;
/** Device names Windows reserves whatever the extension (`con.txt` is the console too). */
const RESERVED = /^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9]|lpt[0-9])$/i;
/** Longest name kept whole: with `.html` and a collision suffix (`~` + 8 hex digits) it stays within 255 bytes. */
const MAX_NAME = 240;
/** Longest relative path kept as it is; PATH_MAX is 4096 and the repository's own path counts too. */
const MAX_PATH = 1024;
/** Stands for an empty segment (`//`): `_` escaped, so never the name of a normalized URL's segment. */
const EMPTY = '%5F';

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

const percent = (ch: string): string => {
  let out = '';
  for (const byte of Buffer.from(ch, 'utf8')) out += '%' + (byte < 16 ? '0' : '') + byte.toString(16).toUpperCase();
  return out;
};

/** Percent-escapes what is unsafe; escapes already present stay as they are (never decoded). */
const escape = (text: string): string => (text.search(UNSAFE) === -1 ? text : text.replace(UNSAFE, percent));

/** Keeps a short extension through truncation, so `report….pdf` is still a `.pdf`. */
const KEEP_EXT = /\.[A-Za-z0-9]{1,8}$/;

/** Cuts a long name to MAX_NAME, with 8 hex digits of its MD5 so distinct names stay distinct. */
const shorten = (name: string): string => {
  const ext = KEEP_EXT.exec(name)?.[0] ?? '';
  let cut = MAX_NAME - 9 - ext.length;
  const pct = name.lastIndexOf('%', cut - 1);
  if (pct !== -1 && pct >= cut - 2) cut = pct; // do not split a %XX escape
  return name.slice(0, cut) + '~' + md5(name).slice(0, 8) + ext;
};

/**
 * Makes one escaped name safe on every file system: never empty, `.` or `..` (a trailing dot is
 * escaped, which also covers the dots Windows would strip), never a reserved device name, at most
 * 245 bytes (room for a collision suffix). Each repair writes an escaped unreserved character
 * (`%5F`, `%2E`, `%63`), which a normalized URL never holds, so a repaired name cannot meet the
 * name of another URL.
 */
const safeName = (name: string, html: boolean): string => {
  if (name === '') return EMPTY;
  if (name.endsWith('.')) name = name.slice(0, -1) + '%2E';
  if (name.length > MAX_NAME) name = shorten(name);
  if (html && !HTML_EXT.test(name)) name += '.html';
  const dot = name.indexOf('.');
  if (RESERVED.test(dot === -1 ? name : name.slice(0, dot))) name = percent(name.charAt(0)) + name.slice(1);
  return name;
};

/**
 * Names the crawl writes at the top of every repository besides the host folders (lowercase):
 * the index, the stats, the report. `.tarantula` (the journal and the state) needs no entry: no
 * host folder begins with a dot.
 */
export const CRAWL_FILES: readonly string[] = ['index.txt', 'stats.json', 'report.html'];

/**
 * Whether host folder `name` would stand on a top-level name of the crawl's own: a hidden name
 * (`.tarantula`), one of `reserved`, or one of them followed by what the crawl adds to it (`index.txt.new`
 * while a recrawl runs, `crawl-00000.warc.gz` for a WARC named `crawl`).
 */
function isReserved(name: string, reserved: readonly string[]): boolean {
  if (name.startsWith('.')) return true;
  const lower = name.toLowerCase();
  for (const n of reserved) if (lower.startsWith(n) && (lower.length === n.length || lower[n.length] === '.' || lower[n.length] === '-')) return true;
  return false;
}

/**
 * The place of a document in the mirror (SPEC §6), as path segments relative to the repository:
 * first the host folder (`HOST` or `HOST+PORT`), then the folders of the URL's path, then the file.
 * A path ending in `/` is stored as `index.html`; the query is kept with `?` written `%3F`; an HTML
 * document whose name has no `.htm`/`.html` extension gets `.html` after everything else.
 * Percent-escapes are kept as they are; whatever the URL holds, every segment is a plain name (never
 * empty, `.`, `..`, reserved on Windows, or longer than 255 bytes), so the joined path stays inside
 * the repository. A host folder never takes a name the crawl writes itself (`reserved`, a hidden name):
 * its first character is escaped instead (`stats.json` → `%73tats.json`, `.tarantula` →
 * `%2Etarantula`); a host name holds no `%`, so the escaped name is no other host's. Pure and
 * deterministic. Collisions between files and folders, and between two URLs, are the store's job.
 *
 * @param url a normalized http(s) URL
 * @param isHtml whether the document is HTML
 * @param reserved the top-level names of the crawl's own files (lowercase); default {@link CRAWL_FILES}
 * @example
 * mirrorPath(new URL('http://www.ics.forth.gr/index.html'), true) //=> ['www.ics.forth.gr', 'index.html']
 * mirrorPath(new URL('http://h:8080/a/news'), true)               //=> ['h+8080', 'a', 'news.html']
 * mirrorPath(new URL('http://h/p?x=1'), true)                      //=> ['h', 'p%3Fx=1.html']
 * mirrorPath(new URL('http://h/docs/'), false)                     //=> ['h', 'docs', 'index.html']
 * @see MirrorStore
 */
export function mirrorPath(url: URL, isHtml: boolean, reserved: readonly string[] = CRAWL_FILES): string[] {
  // `+` separates the port, so a `+` of the host name itself is escaped
  const hostname = escape(url.hostname).replaceAll('+', '%2B');
  let host = safeName(url.port === '' ? hostname : hostname + '+' + url.port, false);
  if (isReserved(host, reserved)) host = percent(host.charAt(0)) + host.slice(1);
  const parts = url.pathname.slice(1).split('/');
  const last = parts.pop() ?? '';
  const out = [host];
  let length = host.length;
  for (const part of parts) {
    const dir = safeName(escape(part), false);
    out.push(dir);
    length += dir.length + 1;
  }
  let name = last === '' ? 'index.html' : escape(last);
  if (url.search.length > 1) name += '%3F' + escape(url.search.slice(1));
  name = safeName(name, isHtml);
  if (length + name.length + 1 <= MAX_PATH) {
    out.push(name);
    return out;
  }
  return shortened(out, url, isHtml);
}

/** For absurdly deep URLs: the folders that fit, then a file named after the URL's MD5. */
function shortened(segments: string[], url: URL, isHtml: boolean): string[] {
  const name = '~' + md5(url.href) + (isHtml ? '.html' : '');
  let length = name.length;
  let keep = 0;
  while (keep < segments.length && length + (segments[keep] as string).length + 1 <= MAX_PATH) {
    length += (segments[keep] as string).length + 1;
    keep++;
  }
  segments.length = keep;
  segments.push(name);
  return segments;
}
