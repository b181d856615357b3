import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CrawlerConfig } from '../model/config.js';
import { DEFAULT_CONFIG, FIELD_OF_KEY, KEYS } from './keys.js';
import { loadConfig } from './load-config.js';
import { parseConf } from './parse-conf.js';

const SHIPPED = fileURLToPath(new URL('../../Crawler.conf', import.meta.url));

describe('the shipped Crawler.conf', () => {
  it('loads without warnings, seeded with the demo hosts', async () => {
    const { config, warnings } = await loadConfig(SHIPPED);
    expect(warnings).toEqual([]);
    expect(config.startingPoints).toEqual(['http://www.tarantula.test/', 'http://docs.tarantula.test/']);
    expect(config.repository).toBe('./repository');
  });

  it('sets every key once, in its own section, under a comment that gives its default', async () => {
    const text = await readFile(SHIPPED, 'utf8');
    const lines = text.split('\n');
    const statements = parseConf(text, SHIPPED);
    const fields = Object.keys(KEYS) as (keyof CrawlerConfig)[];
    expect(statements.map((s) => s.key).sort()).toEqual(fields.map((f) => KEYS[f].name).sort());
    for (const st of statements) {
      expect(st.section, st.key).toBe(KEYS[FIELD_OF_KEY.get(st.key)!].section);
      // The statement is lines[st.line - 1]; its comment block is the run of '#' lines just above.
      let start = st.line - 1;
      while (start > 0 && lines[start - 1]!.startsWith('#')) start--;
      const comment = lines.slice(start, st.line - 1).join('\n');
      expect(comment, st.key).toMatch(/Default: /);
    }
  });

  it('keeps every default but the example seeds, lists and page limit', async () => {
    const { config } = await loadConfig(SHIPPED);
    const changed = new Set<keyof CrawlerConfig>(['startingPoints', 'acceptList', 'rejectList', 'maxPageNumber']);
    for (const field of Object.keys(KEYS) as (keyof CrawlerConfig)[]) {
      if (!changed.has(field)) expect(config[field], field).toEqual(DEFAULT_CONFIG[field]);
    }
    expect(config.maxPageNumber).toBe(1_000_000);
    expect(config.rejectList.map(String)).toEqual([String.raw`/.*\.[tT][mM][pP]\.?.{0,4}$/`, '/^#.*/', String.raw`/.*\?.*/`]);
  });
});

describe('loadConfig', () => {
  let dir: string;
  let cwd: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tarantula-conf-'));
    cwd = process.cwd();
    process.chdir(dir);
  });
  afterEach(async () => {
    process.chdir(cwd);
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a file and applies the overrides', async () => {
    await writeFile('my.conf', 'starting-points = { "http://a.test/" };\nmax-depth = 2;\n');
    const { config } = await loadConfig('my.conf', { maxDepth: 5, requestsInFlight: 1 });
    expect([config.startingPoints, config.maxDepth, config.requestsInFlight]).toEqual([['http://a.test/'], 5, 1]);
  });

  it('names the file in syntax errors', async () => {
    await writeFile('bad.conf', '\n\nthreads = 16');
    await expect(loadConfig('bad.conf')).rejects.toThrow(/^bad\.conf:3: missing ";"/);
  });

  it('refuses a missing file that was named, even with seeds', async () => {
    const err = loadConfig('nope.conf', { startingPoints: ['http://a.test/'] });
    await expect(err).rejects.toMatchObject({ code: 'conf-read' });
    await expect(err).rejects.toThrow(/^nope\.conf: cannot read: ENOENT: no such file or directory/);
  });

  it('uses the defaults when ./Crawler.conf is missing and flags give seeds, and says so', async () => {
    const { config, warnings } = await loadConfig(undefined, { startingPoints: ['http://a.test/'] });
    expect(config).toEqual({ ...DEFAULT_CONFIG, startingPoints: ['http://a.test/'] });
    expect(warnings).toEqual(['Crawler.conf: not found; using the defaults and the command-line flags']);
  });

  it('refuses a missing ./Crawler.conf when nothing gives seeds', async () => {
    await expect(loadConfig(undefined)).rejects.toThrow(/^Crawler\.conf: cannot read: ENOENT/);
  });

  it('reads ./Crawler.conf when no path is given', async () => {
    await writeFile('Crawler.conf', 'starting-points = http://d.test/;');
    expect((await loadConfig(undefined)).config.startingPoints).toEqual(['http://d.test/']);
  });

  it('refuses a folder with the reason', async () => {
    await expect(loadConfig('.')).rejects.toThrow(/^\.: cannot read: EISDIR/);
  });
});
