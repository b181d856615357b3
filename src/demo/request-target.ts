/** Where a request points inside the fixture root: a virtual host and a safe, decoded path. */
export interface RequestTarget {
  /** Path segments, percent-decoded; none is empty, `.`, `..`, or holds `/`, `\` or NUL. */
  readonly segments: readonly string[];
  /** The decoded path, `/` + segments joined, with the trailing `/` kept: the `_headers.json` key. */
  readonly path: string;
  /** True when the raw path ends in `/` (a directory: serve its `index.html`). */
  readonly trailingSlash: boolean;
  /** The raw query after the first `?`, undecoded; undefined when the target has no `?`. */
  readonly query: string | undefined;
}

const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/**
 * The virtual host a request names: the Host header without its port, lowercased, without a final
 * dot. Undefined when the name could not be a folder name of the root (so `..`, `a/b` or an IPv6
 * literal never reach the file system).
 *
 * @example
 * parseHost('Docs.Tarantula.TEST:8080') //=> 'docs.tarantula.test'
 * parseHost('..')                       //=> undefined
 */
export function parseHost(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const colon = header.lastIndexOf(':');
  let name = (colon === -1 ? header : header.slice(0, colon)).toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  return HOST_NAME.test(name) ? name : undefined;
}

/**
 * Splits an absolute-form request target (`http://host/a?q`, as proxies receive) into its authority
 * and origin-form; an origin-form target (`/a?q`) is returned as it is.
 *
 * @example
 * originForm('http://Blog.tarantula.test:80/feed.xml') //=> { authority: 'Blog.tarantula.test:80', target: '/feed.xml' }
 */
export function originForm(raw: string): { authority?: string; target: string } {
  const m = /^https?:\/\/([^/?#]*)/i.exec(raw);
  if (!m) return { target: raw };
  const rest = raw.slice(m[0].length);
  return { authority: m[1] ?? '', target: rest.startsWith('/') ? rest : '/' + rest };
}

/**
 * Splits an origin-form request target into decoded path segments. Undefined for anything that could
 * leave the host folder once decoded: a `..` or `.` segment, an encoded `/` or `\`, a NUL, a malformed
 * escape, or a target not starting with `/`. Empty segments (`//`) are skipped, as most servers merge slashes.
 *
 * @example
 * parseTarget('/guide/advanced/?x=1') //=> { segments: ['guide', 'advanced'], path: '/guide/advanced/', trailingSlash: true, query: 'x=1' }
 * parseTarget('/%2e%2e/etc/passwd')   //=> undefined
 */
export function parseTarget(raw: string): RequestTarget | undefined {
  if (!raw.startsWith('/')) return undefined;
  const q = raw.indexOf('?');
  const rawPath = q === -1 ? raw : raw.slice(0, q);
  const segments: string[] = [];
  for (const part of rawPath.split('/')) {
    if (part === '') continue;
    let s: string;
    try {
      s = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (s === '.' || s === '..' || /[/\\\0]/.test(s)) return undefined;
    segments.push(s);
  }
  const trailingSlash = rawPath.endsWith('/');
  const path = segments.length === 0 ? '/' : '/' + segments.join('/') + (trailingSlash ? '/' : '');
  return { segments, path, trailingSlash, query: q === -1 ? undefined : raw.slice(q + 1) };
}
