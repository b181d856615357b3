import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { HEADERS_FILE } from './host-sites.js';
import type { RequestTarget } from './request-target.js';

/** A file to serve. */
export interface FoundFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The name whose extension gives the Content-Type (without any `%3Fquery`). */
  readonly typeName: string;
}

/**
 * The file a target names inside a site folder: `dir/SEG/SEG`, its `index.html` when the target ends
 * in `/`, the file `SEG%3FQUERY` (with `/` and `\` in the query escaped) before `SEG` when there is a
 * query; `'directory'` for a folder named without its trailing `/`; undefined when there is none. The
 * site's `_headers.json` is never a file of the site. Synchronous: a fixture is a small local file,
 * and a promise's `stat` costs six times the CPU.
 *
 * @example
 * findFile('fixtures/demo/www.tarantula.test', parseTarget('/search.html?q=spiders')!)
 * //=> { path: '.../search.html%3Fq=spiders', typeName: 'search.html', size: ..., mtimeMs: ... }
 */
export function findFile(dir: string, target: RequestTarget): FoundFile | 'directory' | undefined {
  const { segments, query, trailingSlash } = target;
  const last = segments[segments.length - 1];
  if (segments.length === 1 && last === HEADERS_FILE) return undefined;
  const base = join(dir, ...segments);
  if (last !== undefined && !trailingSlash && query) {
    const withQuery = fileAt(base + '%3F' + query.replace(/[/\\]/g, encodeURIComponent), last);
    if (withQuery) return withQuery;
  }
  const info = statOf(base);
  if (info?.isDirectory()) {
    return trailingSlash || last === undefined ? fileAt(join(base, 'index.html'), 'index.html') : 'directory';
  }
  if (!info?.isFile() || trailingSlash || last === undefined) return undefined;
  return { path: base, size: info.size, mtimeMs: info.mtimeMs, typeName: last };
}

function fileAt(path: string, typeName: string): FoundFile | undefined {
  const info = statOf(path);
  return info?.isFile() ? { path, size: info.size, mtimeMs: info.mtimeMs, typeName } : undefined;
}

/** A path that cannot be a file of the site (missing, under a file, too long) is none. */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
