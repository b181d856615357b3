/**
 * A rewriter that gives every absolute `http://` URL naming one of `hosts` (in any letter case, with
 * no port or port 80) the port `port`. The fixture web is written with port-less links, as a real site
 * is; a fixture server on a free port uses this so that a crawl with curl-style
 * `--resolve HOST:PORT:127.0.0.1` entries can follow links from host to host. Works on text of any
 * ASCII-compatible encoding read as latin1; a URL with another port is left alone.
 *
 * @example
 * portLinks(['docs.tarantula.test'], 8080)('<a href="http://DOCS.tarantula.test/guide/">')
 * //=> '<a href="http://DOCS.tarantula.test:8080/guide/">'
 */
export function portLinks(hosts: readonly string[], port: number): (text: string) => string {
  if (hosts.length === 0) return (text) => text;
  const names = hosts.map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const pattern = new RegExp(`(http://)(${names})(?::80)?(?![\\w.:-])`, 'gi');
  const replacement = `$1$2:${port}`;
  return (text) => text.replace(pattern, replacement);
}
