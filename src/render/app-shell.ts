/** Only the start of a page is looked at: an app shell is small. */
const LOOK_AT_BYTES = 262_144;

/** Visible characters below which a page with scripts is taken for a shell its scripts fill in. */
const SHELL_TEXT_CHARS = 200;

const SCRIPT = /<script\b/i;
const LINK = /<a\s[^>]*\bhref\s*=/i;
const HIDDEN = /<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const TAG = /<[^>]*>/g;

/**
 * Whether a fetched HTML page has a script: a page without one shows a browser what it shows the
 * crawler, and is never rendered in `auto`.
 *
 * @example
 * hasScripts(Buffer.from('<p>Hello</p>')) //=> false
 */
export function hasScripts(body: Buffer): boolean {
  return SCRIPT.test(body.toString('latin1', 0, Math.min(body.byteLength, LOOK_AT_BYTES)));
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
