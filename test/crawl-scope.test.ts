import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type E2eWeb } from './support/e2e-web.js';
import { parseSeedIndex } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/scope: the seed http://www.site.test/docs/index.html links a page of its folder, a
 * deeper one, a page elsewhere on the host, a sibling folder whose name starts with "docs", a
 * subdomain (which links a sub-subdomain), the bare domain, a host that only ends like the domain,
 * and an unrelated site.
 */
const PATH = ['www.site.test/docs/index.html', 'www.site.test/docs/guide.html', 'www.site.test/docs/sub/deep.html'];
const HOST = [...PATH, 'www.site.test/other/page.html', 'www.site.test/docsextra/x.html', 'www.site.test/'];
const DOMAIN = [...HOST, 'blog.site.test/', 'deep.blog.site.test/', 'site.test/root.html'];
const FREE = [...DOMAIN, 'evilsite.test/', 'elsewhere.test/', 'elsewhere.test/more.html'];

/** The seed page's links in document order, host/path form. */
const SEED_LINKS = [
  'www.site.test/docs/guide.html',
  'www.site.test/docs/sub/deep.html',
  'www.site.test/other/page.html',
  'www.site.test/docsextra/x.html',
  'blog.site.test/',
  'site.test/root.html',
  'evilsite.test/',
  'elsewhere.test/',
];

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  web = await startWeb('scope');
  tmp = await tempDir();
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

const hostPath = (url: string): string => {
  const u = new URL(url);
  return u.hostname + u.pathname;
};

describe('scope', () => {
  it.concurrent.each([
    ['free-spanning', FREE],
    ['domain-scope', DOMAIN],
    ['host-scope', HOST],
    ['path-scope', PATH],
  ])('%s fetches exactly the URLs in scope, and lists only those links', async (scope, expected) => {
    const repo = join(tmp.dir, scope);
    const run = await web.crawl(['--seed', web.url('www.site.test', '/docs/index.html'), '--scope', scope, '--repository', repo, '--log-level', '0'], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(0);
    expect([...run.pages].sort()).toEqual([...expected].sort());
    expect(run.requests.every((r) => r.status === 200 || r.path === '/robots.txt')).toBe(true);

    const records = parseSeedIndex(await readFile(join(repo, 'index.txt'), 'utf8'));
    expect(records.map((r) => hostPath(r.url)).sort()).toEqual([...expected].sort());
    const seed = records.find((r) => hostPath(r.url) === PATH[0]);
    expect(seed?.links.map((l) => hostPath(l.url))).toEqual(SEED_LINKS.filter((l) => expected.includes(l)));
  });
});
