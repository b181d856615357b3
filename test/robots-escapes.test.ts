import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/robots-escapes: tilde.test disallows `/%7Ejoe/` and `/~bob/`, and links each home
 * folder written both ways, `/~user/` and `/%7Euser/`. RFC 9309 §2.2.2 compares them as one.
 */
let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let run: CrawlRun;

beforeAll(async () => {
  web = await startWeb('robots-escapes');
  tmp = await tempDir();
  run = await web.crawl(['--seed', web.url('tilde.test'), '--repository', `${tmp.dir}/repo`, '--log-level', '0'], { cwd: tmp.dir });
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

describe('robots.txt rules with escaped unreserved characters, through the real fetch path', () => {
  it('completes', () => {
    expect(run.code, run.stderr).toBe(0);
  });

  it('Disallow: /%7Ejoe/ stops /~joe/ and /%7Ejoe/; Disallow: /~bob/ stops /~bob/ and /%7ebob/', () => {
    expect(run.pages.filter((p) => p.includes('joe') || p.includes('bob'))).toEqual([]);
  });

  it('fetches the allowed folder under either spelling, once each', () => {
    expect(run.pages).toEqual(['tilde.test/', 'tilde.test/~ann/index.html', 'tilde.test/~ann/escaped.html']);
  });
});
