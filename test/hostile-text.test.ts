import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseString } from 'fast-csv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/demo/fixture-server.js';
import { parseSeedIndex } from './support/index-files.js';
import { resolveFlags, runCli, type CliResult } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

/**
 * A page that tries to drive the terminal of whoever reads the index: ESC sequences that clear the
 * screen and retitle the window, an 8-bit CSI (U+009B), DEL, a right-to-left override and an
 * isolate, in its title, its anchor texts, the links as written, and its ETag and Last-Modified.
 */
const HOST = 'evil.test';
const ESC = '\x1b';
const TITLE = `Evil ${ESC}[2J${ESC}]0;pwned\x07 csi\u009b31m rlo\u202egnp.exe iso\u2066x\u2069 del\x7f end`;
const ANCHOR = `b ${ESC}[2J text\u202e`;
const C_HREF = '/c.html?\u202ex';
const D_HREF = `/d.html${ESC}[1m`;
const ETAG = '"e\u009b2J"';
const LAST_MODIFIED = 'Tue, 15 Nov 1994 08:12:31 GMT\u009b2J';
const PAGE = `<!doctype html><meta charset="utf-8"><title>${TITLE}</title>
<a href="/b.html">${ANCHOR}</a> <a href="${C_HREF}">c</a> <a href="${D_HREF}">d</a>`;

/** What the txt and csv formats write instead: each of those characters becomes `?`. */
const replaced = (text: string): string => text.replace(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, '?');
/** Anything a terminal would act on, or that reorders a line, other than a tab or a line break. */
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

let server: FixtureServer;
let tmp: Awaited<ReturnType<typeof tempDir>>;
const runs: Record<'seed' | 'csv' | 'jsonl', CliResult | undefined> = { seed: undefined, csv: undefined, jsonl: undefined };

beforeAll(async () => {
  tmp = await tempDir();
  server = await startFixtureServer({
    root: tmp.dir,
    hooks: {
      handle: (_req, res, { host, path }) => {
        if (host !== HOST) return false;
        if (path === '/robots.txt') res.writeHead(404).end();
        else {
          const body = Buffer.from(path === '/' ? PAGE : `<!doctype html><title>${path}</title>`);
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length, ETag: ETAG, 'Last-Modified': LAST_MODIFIED }).end(body);
        }
        return true;
      },
    },
  });
  const crawl = (name: string, index: string[]) =>
    runCli(
      ['crawl', '--seed', `http://${HOST}:${server.port}/`, ...resolveFlags([HOST], server.port), '--repository', join(tmp.dir, name),
        '--delay-factor', '0', '--min-delay', '0', '--max-delay', '0', '--log-level', '0', '--sitemaps', 'false', ...index],
      { cwd: tmp.dir },
    );
  runs.seed = await crawl('seed', ['--index', '-']);
  runs.csv = await crawl('csv', ['--index', join(tmp.dir, 'index.csv'), '--format', 'csv']);
  runs.jsonl = await crawl('jsonl', ['--index', join(tmp.dir, 'index.jsonl'), '--format', 'jsonl']);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await tmp?.remove();
});

const origin = () => `http://${HOST}:${server.port}`;

describe('control characters of a page never reach the terminal raw through the index', () => {
  it('replaces them in index.txt and in the seed format on stdout (--index -), title, anchor texts and links as written', async () => {
    expect(runs.seed?.code, runs.seed?.stderr).toBe(0);
    const stdout = runs.seed!.stdout;
    const file = await readFile(join(tmp.dir, 'seed', 'index.txt'), 'utf8');
    for (const text of [stdout, file]) {
      expect(text).not.toMatch(RAW_CONTROL);
      const records = parseSeedIndex(text);
      const home = records.find((r) => r.url === `${origin()}/`)!;
      expect(home.title).toBe(replaced(TITLE));
      expect(home.lastModified).toBe(replaced(LAST_MODIFIED));
      expect(home.links[0]).toEqual({ url: `${origin()}/b.html`, text: replaced(ANCHOR) });
      expect(records.find((r) => r.url.startsWith(`${origin()}/c.html`))?.originalUrl).toBe(replaced(C_HREF));
      expect(records.find((r) => r.url.startsWith(`${origin()}/d.html`))?.originalUrl).toBe(replaced(D_HREF));
    }
  });

  it('replaces them in the csv format, every field from the web (title, original URL, ETag, Last-Modified)', async () => {
    expect(runs.csv?.code, runs.csv?.stderr).toBe(0);
    const text = await readFile(join(tmp.dir, 'index.csv'), 'utf8');
    expect(text).not.toMatch(RAW_CONTROL);
    const rows = await new Promise<Record<string, string>[]>((resolve, reject) => {
      const all: Record<string, string>[] = [];
      parseString<Record<string, string>, Record<string, string>>(text, { headers: true }).on('data', (r: Record<string, string>) => all.push(r)).on('error', reject).on('end', () => resolve(all));
    });
    const home = rows.find((r) => r['url'] === `${origin()}/`)!;
    expect(home['title']).toBe(replaced(TITLE));
    expect(home['etag']).toBe(replaced(ETAG));
    expect(home['lastModified']).toBe(replaced(LAST_MODIFIED));
    expect(rows.find((r) => r['url']!.startsWith(`${origin()}/d.html`))?.['originalUrl']).toBe(replaced(D_HREF));
  });

  it('escapes them in the jsonl format (\\u009b, \\u202e, ...), so that every value reads back as the page wrote it', async () => {
    expect(runs.jsonl?.code, runs.jsonl?.stderr).toBe(0);
    const text = await readFile(join(tmp.dir, 'index.jsonl'), 'utf8');
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).toContain('\\u009b31m');
    expect(text).toContain('rlo\\u202egnp');
    const records = text.trim().split('\n').map((l) => JSON.parse(l) as { url: string; originalUrl: string; title: string; etag: string; lastModified: string; links: { text: string }[] });
    const home = records.find((r) => r.url === `${origin()}/`)!;
    expect(home.title).toBe(TITLE);
    expect(home.etag).toBe(ETAG);
    expect(home.lastModified).toBe(LAST_MODIFIED);
    expect(home.links[0]?.text).toBe(ANCHOR);
    expect(records.find((r) => r.url.startsWith(`${origin()}/c.html`))?.originalUrl).toBe(C_HREF);
  });
});
