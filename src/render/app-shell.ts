/** Only the start of a page is looked at: an app shell is small. */
const LOOK_AT_BYTES = 262_144;

/** Visible characters below which a page with scripts is taken for a shell its scripts fill in. */
const SHELL_TEXT_CHARS = 200;

const SCRIPT = /<script\b/i;
const LINK = /<a\s[^>]*\bhref\s*=/i;
const HIDDEN = /<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const TAG = /<[^>]*>/g;

const EXTERNAL_SCRIPT = /<script\b[^>]*\bsrc\s*=/i;
const INLINE_SCRIPT = /<script\b[^>]*>([\s\S]*?)<\/script\s*>/gi;
/** What an inline script calls to fetch more or to write the page. */
const WRITES = /\b(fetch|XMLHttpRequest|createElement|innerHTML|outerHTML|insertAdjacentHTML|appendChild|append|replaceChildren|write|import)\b/;

/**
 * Whether a fetched HTML page has scripts that may add to it: one loaded from a URL (what it does
 * is not in the page), or an inline one that fetches or writes the DOM. A page without scripts, or
 * whose scripts only set variables (an analytics `dataLayer`), shows a browser what it shows the
 * crawler, and `auto` never renders it.
 *
 * @example
 * scriptsMayWrite(Buffer.from('<p>Hi</p><script>window.dataLayer = [];</script>')) //=> false
 * scriptsMayWrite(Buffer.from('<p>Hi</p><script src="/app.js"></script>')) //=> true
 */
export function scriptsMayWrite(body: Buffer): boolean {
  const html = body.toString('latin1', 0, Math.min(body.byteLength, LOOK_AT_BYTES));
  if (!SCRIPT.test(html)) return false;
  if (EXTERNAL_SCRIPT.test(html)) return true;
  for (const [, code] of html.matchAll(INLINE_SCRIPT)) if (WRITES.test(code!)) return true;
  return false;
}

/**
 * Whether a fetched HTML page is an app shell that only a browser fills in: it has scripts, no link
 * and next to no visible text. A static page (any link, or a paragraph of text) is not.
 *
 * @example
 * isAppShell(Buffer.from('<div id=app></div><script src=/app.js></script>')) //=> true
 * isAppShell(Buffer.from('<p>Hello <a href=/a>a</a></p><script src=/x.js></script>')) //=> false
 */
export function isAppShell(body: Buffer): boolean {
  const html = body.toString('latin1', 0, Math.min(body.byteLength, LOOK_AT_BYTES));
  if (!SCRIPT.test(html) || LINK.test(html)) return false;
  const text = html.replace(HIDDEN, ' ').replace(TAG, ' ').replace(/&[#\w]+;/g, 'x').replace(/\s+/g, '');
  return text.length < SHELL_TEXT_CHARS;
}
