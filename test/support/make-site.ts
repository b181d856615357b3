import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Writes a small web under `root/HOST/...`: `pages` pages per host in a binary tree (page i links to
 * 2i+1 and 2i+2 on the same host, and page 0 of the next host), each with a title naming it.
 * Links carry no port: the fixture server adds its own.
 *
 * @example
 * await makeTreeSite(dir, ['a.test', 'b.test'], 30); // 60 pages, every one reachable from a.test/p0.html
 */
export async function makeTreeSite(root: string, hosts: readonly string[], pages: number): Promise<string[]> {
  const urls: string[] = [];
  for (const [h, host] of hosts.entries()) {
    const next = hosts[(h + 1) % hosts.length]!;
    for (let i = 0; i < pages; i++) {
      const links = [2 * i + 1, 2 * i + 2].filter((j) => j < pages).map((j) => `<a href="p${j}.html">page ${j}</a>`);
      if (i === 0) links.push(`<a href="http://${next}/p0.html">next host</a>`);
      await writePage(root, host, `p${i}.html`, `<!doctype html><title>${host} page ${i}</title><body><h1>Page ${i}</h1>${links.join('\n')}</body>`);
      urls.push(`http://${host}/p${i}.html`);
    }
  }
  return urls;
}

export async function writePage(root: string, host: string, path: string, html: string): Promise<void> {
  const file = join(root, host, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, html);
}
