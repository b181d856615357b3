/** A `Content-Type` header value split into what the parse stage uses. */
export interface ContentType {
  /** `type/subtype`, lowercased and trimmed; `''` when the header is absent or empty. */
  readonly essence: string;
  /** The `charset` parameter as written (quotes removed, trimmed); `undefined` when absent. */
  readonly charset: string | undefined;
}

const CHARSET_PARAM = /;\s*charset\s*=\s*(?:"([^"]*)"?|([^;]*))/i;

/**
 * Splits a `Content-Type` value into its essence and its `charset` parameter, leniently (as Fetch's
 * "extract a MIME type" does for the one header a server sends): a missing subtype, stray spaces
 * or an unterminated quote do not make the value unusable.
 *
 * @example
 * parseContentType('Text/HTML; Charset="ISO-8859-7"')
 * //=> { essence: 'text/html', charset: 'ISO-8859-7' }
 */
export function parseContentType(value: string | undefined): ContentType {
  if (value === undefined) return { essence: '', charset: undefined };
  const semi = value.indexOf(';');
  const essence = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
  if (semi === -1) return { essence, charset: undefined };
  const match = CHARSET_PARAM.exec(value.slice(semi));
  const charset = match === null ? undefined : (match[1] ?? match[2] ?? '').trim();
  return { essence, charset: charset === '' ? undefined : charset };
}
