import { isAbsolute, relative, resolve, sep } from 'node:path';
import { CRAWL_FILES } from './mirror-path.js';

/**
 * The top-level names of `repository` that no host folder may take: the crawl's own files
 * ({@link CRAWL_FILES}), and the first name of each of `paths` (the user's index file, log file,
 * WARC series) that lies inside the repository, lowercase.
 *
 * @example
 * reservedNames('out', ['out/logs/crawl.log', '/elsewhere/index.jsonl']) //=> ['index.txt', 'stats.json', 'report.html', 'logs']
 */
export function reservedNames(repository: string, paths: readonly (string | undefined)[]): string[] {
  const root = resolve(repository);
  const names = [...CRAWL_FILES];
  for (const path of paths) {
    if (path === undefined || path === '') continue;
    const rel = relative(root, resolve(path));
    if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) continue;
    names.push(rel.split(sep)[0]!.toLowerCase());
  }
  return names;
}
