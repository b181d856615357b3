import { readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portLinks } from '../src/demo/port-links.js';
import { E2E_ROOT, startWeb, type CrawlRun, type E2eWeb } from './support/e2e-web.js';
import { md5, parseSeedIndex, type SeedRecord } from './support/index-files.js';
import { tempDir } from './support/temp-dir.js';

/**
 * fixtures/e2e/example/Crawler.conf is the assignment's example of SPEC §3, verbatim but for its two
 * seeds, which name fixture hosts (www.csd.uoc.test, www.ics.forth.test); the test adds the server's
 * port. Its relative repository (./testbedcsdics) and log file (log) land in the test's folder.
 */
const EXAMPLE = join(E2E_ROOT, 'example');

/** URL (no port) → original URL(s), title, type, links: the records the crawl must write. */
const RECORDS: Record<string, { original: string[]; title: string; type?: string; links: [string, string][] }> = {
  'http://www.csd.uoc.test/': {
    original: ['http://www.csd.uoc.test/'],
    title: 'Computer Science Department',
    links: [
      ['http://www.csd.uoc.test/courses.html', 'Courses'],
      ['http://www.csd.uoc.test/people/', 'People'],
      ['http://www.csd.uoc.test/papers/crawler.pdf', 'A paper on crawlers'],
      ['http://users.csd.uoc.test/alice.html', 'Alice'],
      ['http://www.ics.forth.test/', 'ICS-FORTH'],
    ],
  },
  // both seeds link the courses: whichever is parsed first gives the original
  'http://www.csd.uoc.test/courses.html': {
    original: ['courses.html', 'http://www.csd.uoc.test/courses.html'],
    title: 'Courses',
    links: [['http://www.csd.uoc.test/', 'Home'], ['http://www.csd.uoc.test/courses.html', 'HY463']],
  },
  'http://www.csd.uoc.test/people/': {
    original: ['people/'],
    title: 'People',
    links: [['http://www.csd.uoc.test/courses.html', 'Courses'], ['http://users.csd.uoc.test/alice.html', 'Alice Example']],
  },
  'http://www.csd.uoc.test/papers/crawler.pdf': { original: ['papers/crawler.pdf'], title: '-', type: 'pdf', links: [] },
  'http://users.csd.uoc.test/alice.html': {
    original: ['http://users.csd.uoc.test/alice.html'],
    title: 'Alice',
    links: [['http://www.csd.uoc.test/people/', 'Back to people']],
  },
  'http://www.ics.forth.test/': {
    original: ['http://www.ics.forth.test/'],
    title: 'Institute of Computer Science',
    links: [['http://www.ics.forth.test/research.html', 'Research'], ['http://www.csd.uoc.test/courses.html', 'Courses at CSD']],
  },
  'http://www.ics.forth.test/research.html': { original: ['research.html'], title: 'Research', links: [['http://www.ics.forth.test/', 'ICS home']] },
};

let web: E2eWeb;
let tmp: Awaited<ReturnType<typeof tempDir>>;
let dir: string;
let run: CrawlRun;
let records: SeedRecord[];
let withPort: (text: string) => string;

beforeAll(async () => {
  web = await startWeb('example');
  withPort = portLinks(web.hosts, web.server.port);
  tmp = await tempDir();
  dir = await realpath(tmp.dir);
  await writeFile(join(dir, 'Crawler.conf'), withPort(await readFile(join(EXAMPLE, 'Crawler.conf'), 'utf8')));
  run = await web.crawl([], { cwd: dir }); // ./Crawler.conf, as `tarantula crawl` with no CONF reads
  records = parseSeedIndex(await readFile(join(dir, 'testbedcsdics', 'index.txt'), 'utf8'));
});
afterAll(async () => {
  await web.close();
  await tmp.remove();
});

describe("the assignment's example Crawler.conf", () => {
  it('crawls to the end with exit status 0', () => {
    expect(run.code, run.stderr).toBe(0);
  });

  it('fetches the seeds, their domains, the accepted documents, and nothing else', () => {
    const expected = Object.keys(RECORDS).map((u) => u.slice('http://'.length));
    expect([...run.pages].sort()).toEqual(expected.sort());
  });

  it('writes ./testbedcsdics/index.txt with a correct record per document', () => {
    expect(records.map((r) => r.url).sort()).toEqual(Object.keys(RECORDS).map(withPort).sort());
    for (const [url, want] of Object.entries(RECORDS)) {
      const rec = records.find((r) => r.url === withPort(url))!;
      expect(rec.md5).toBe(md5(rec.url));
      expect(want.original.map(withPort)).toContain(rec.originalUrl);
      expect([rec.title, rec.type, rec.encoding]).toEqual([want.title, want.type ?? 'html', want.type === 'pdf' ? '-' : 'utf-8']);
      expect(rec.links).toEqual(want.links.map(([u, text]) => ({ url: withPort(u), text })));
    }
  });

  it('mirrors every document under ./testbedcsdics/HOST+PORT with the bytes the server sent', async () => {
    for (const url of Object.keys(RECORDS)) {
      const u = new URL(url);
      const file = u.pathname.endsWith('/') ? u.pathname + 'index.html' : u.pathname;
      const sent = await readFile(join(EXAMPLE, u.hostname, file));
      const bytes = file.endsWith('.pdf') ? sent : Buffer.from(withPort(sent.toString('latin1')), 'latin1');
      const stored = await readFile(join(dir, 'testbedcsdics', `${u.hostname}+${web.server.port}`, file));
      expect(stored.equals(bytes), url).toBe(true);
    }
  });

  it('logs a line per fetched page into ./log (log-level 1), not to the screen', async () => {
    const log = await readFile(join(dir, 'log'), 'utf8');
    for (const url of Object.keys(RECORDS)) expect(log).toContain(`"${withPort(url)}"`);
    expect(run.stderr).not.toContain(withPort('http://www.csd.uoc.test/courses.html'));
  });
});
