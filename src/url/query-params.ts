/** Session ids that servers append to links (Java, PHP, classic ASP, ColdFusion, Zen Cart, osCommerce, generic). */
const SESSION_PARAMS_LIST = ['jsessionid', 'phpsessid', 'aspsessionid', 'cfid', 'cftoken', 'zenid', 'oscsid', 'sid', 'sessid', 'sessionid', 'session_id'];
const SESSION_PARAMS: ReadonlySet<string> = new Set(SESSION_PARAMS_LIST);

/**
 * Query parameters dropped by the `stripTracking` option (names compared in lowercase): click and
 * campaign trackers of ad and mail platforms, and session ids that servers append to links
 * (the same page would otherwise be crawled once per session).
 */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  // click ids and campaign tags
  'fbclid', 'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'msclkid', 'yclid', 'twclid', 'ttclid',
  'igshid', 'srsltid', 'li_fat_id', 'mc_cid', 'mc_eid', '_ga', '_gl', '_hsenc', '_hsmi', '__hssc',
  '__hstc', '__hsfp', 'hsctatracking', 'mkt_tok', 'oly_anon_id', 'oly_enc_id', 'vero_id', 'vero_conv',
  'wickedid', '_openstat', 'rb_clickid', 's_cid', 'ef_id', 'pk_campaign', 'pk_kwd', 'pk_source',
  'pk_medium', 'pk_content',
  // session ids
  ...SESSION_PARAMS_LIST,
]);

/** Name prefixes of campaign parameters (Google Analytics `utm_*`, Matomo `mtm_*`). */
export const TRACKING_PREFIXES: readonly string[] = ['utm_', 'mtm_'];

/** Java servlets put the session id in the path: `/cart;jsessionid=0A1B?x=1`. */
const PATH_SESSION_ID = /;jsessionid=[^;/?]*/gi;

function isTracking(param: string): boolean {
  const eq = param.indexOf('=');
  const name = (eq < 0 ? param : param.slice(0, eq)).toLowerCase();
  return TRACKING_PARAMS.has(name) || TRACKING_PREFIXES.some((p) => name.startsWith(p));
}

function nameOf(param: string): string {
  const eq = param.indexOf('=');
  return eq < 0 ? param : param.slice(0, eq);
}

/**
 * Rewrites the query (without its `?`) for the optional normalizations: drops tracking parameters
 * and/or sorts parameters by name. The sort is stable, so repeated names keep their relative order
 * (`a=2&a=1` may mean something else than `a=1&a=2`); sorting also drops empty pieces (`&&`). Parameters are
 * compared and written back exactly as escaped, never re-encoded, unlike `URLSearchParams.sort()`,
 * which rewrites `;`, `/` and `:` in values and `+`-encodes spaces.
 *
 * @example
 * rewriteQuery('b=2&utm_source=x&a=1', { sort: true, stripTracking: true });
 * //=> 'a=1&b=2'
 */
export function rewriteQuery(query: string, how: { readonly sort: boolean; readonly stripTracking: boolean }): string {
  let params = query.split('&');
  if (how.stripTracking) params = params.filter((p) => !isTracking(p));
  if (how.sort) params = params.filter((p) => p !== '');
  if (how.sort && params.length > 1) {
    params.sort((a, b) => {
      const na = nameOf(a);
      const nb = nameOf(b);
      return na < nb ? -1 : na > nb ? 1 : 0;
    });
  }
  return params.join('&');
}

/**
 * Removes `;jsessionid=...` path parameters.
 *
 * @example
 * stripPathSessionIds('/shop/cart;jsessionid=0A1B2C'); //=> '/shop/cart'
 */
export function stripPathSessionIds(path: string): string {
  return path.indexOf(';') < 0 ? path : path.replace(PATH_SESSION_ID, '');
}

/**
 * The URL as the seen-set knows it: without session ids in its query or path, so that the same page
 * linked with a new session id in every link is one page, not an endless trap (Heritrix
 * canonicalizes its already-seen test the same way). The URL fetched keeps them.
 *
 * @example
 * withoutSessionIds('http://a.test/p?sid=8f3a&id=2'); //=> 'http://a.test/p?id=2'
 */
export function withoutSessionIds(normalized: string): string {
  const q = normalized.indexOf('?');
  const semi = normalized.indexOf(';');
  if (q < 0 && semi < 0) return normalized;
  const head = q < 0 ? normalized : normalized.slice(0, q);
  const path = semi < 0 ? head : stripPathSessionIds(head);
  if (q < 0) return path;
  const params = normalized.slice(q + 1).split('&');
  const kept = params.filter((p) => !SESSION_PARAMS.has(nameOf(p).toLowerCase()));
  if (kept.length === params.length && path === head) return normalized;
  return kept.length === 0 ? path : `${path}?${kept.join('&')}`;
}
