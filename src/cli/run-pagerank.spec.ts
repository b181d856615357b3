import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { csvHeader } from '../output/format-csv.js';
import { formatJsonl } from '../output/format-jsonl.js';
import type { IndexRecord } from '../model/index-record.js';
import { runPagerank, type RunPagerankOptions } from './run-pagerank.js';

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: (err?: Error | null) => void): void {
    this.text += chunk.toString();
    done();
  }
}
/** A stream whose reader went away (or that fails otherwise) on the first write. */
const failing = (code: string): Writable =>
  new Writable({ write: (_c, _e, done) => done(Object.assign(new Error(`write ${code}`), { code })) });

const defaults: RunPagerankOptions = { top: 10, format: 'tsv', damping: 0.85 };
async function run(path: string, opts: Partial<RunPagerankOptions> = {}, out: Writable = new Collect()) {
  const err = new Collect();
  const code = await runPagerank(path, { ...defaults, ...opts }, out, err);
  return { code, stdout: out instanceof Collect ? out.text : '', stderr: err.text };
}
const tsvRows = (stdout: string): string[][] => stdout.trimEnd().split('\n').slice(1).map((l) => l.split('\t'));

let dir: string;
let remove: () => Promise<void>;
let edges: string;
beforeAll(async () => {
  ({ dir, remove } = await tempDir('run-pagerank-'));
  edges = join(dir, 'two.edges');
  await writeFile(edges, 'http://h/a\thttp://h/b\n'); // b is dangling
});
afterAll(() => remove());

describe('runPagerank', () => {
  it('prints the ranking with degrees and scores, best first, and exits 0', async () => {
    const { code, stdout, stderr } = await run(edges);
    expect([code, stderr]).toEqual([0, '']);
    const rows = tsvRows(stdout);
    expect(rows.map((r) => r.slice(0, 4))).toEqual([['1', 'http://h/b', '0', '1'], ['2', 'http://h/a', '1', '0']]);
    expect(Number(rows[1]![4])).toBeCloseTo(0.5 / 1.425, 6);
  });

  it('uses the damping given: with 0.5, a→b gives a = 0.4', async () => {
    const { stdout } = await run(edges, { damping: 0.5 });
    expect(Number(tsvRows(stdout)[1]![4])).toBeCloseTo(0.4, 6);
  });

  it('prints the top N, or every page for --top 0, in the format asked', async () => {
    const path = join(dir, 'star.jsonl');
    const page = (url: string, links: string[]) => formatJsonl({ url, links: links.map((l) => ({ url: l, text: '' })) } as unknown as IndexRecord);
    await writeFile(path, ['l1', 'l2', 'l3', 'l4'].map((l) => page(`http://${l}/`, ['http://hub/'])).join(''));
    const all = (await run(path, { top: 0, format: 'jsonl' })).stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { url: string; score: number });
    expect(all).toHaveLength(5);
    expect(all[0]!.url).toBe('http://hub/');
    expect(all.reduce((s, p) => s + p.score, 0)).toBeCloseTo(1, 9);
    const table = (await run(path, { top: 2, format: 'table' })).stdout.split('\n');
    expect(table[0]).toMatch(/^rank +url +out-degree +in-degree +pagerank$/);
    expect(table.slice(1, -1)).toHaveLength(2);
  });

  it('ranks a csv index but says on stderr that it has no links', async () => {
    const path = join(dir, 'index.csv');
    await writeFile(path, csvHeader + 'x,http://h/a,,,,,,,200,,,,,,,,\nx,http://h/b,,,,,,,200,,,,,,,,\n');
    const { code, stdout, stderr } = await run(path);
    expect(code).toBe(0);
    expect(stderr).toMatch(/csv index, which carries no links/);
    expect(tsvRows(stdout).map((r) => [r[2], r[3], Number(r[4])])).toEqual([['0', '0', 0.5], ['0', '0', 0.5]]);
  });

  it('exits 1 with a message on stderr, and nothing on stdout, when the index cannot be read', async () => {
    const missing = await run(join(dir, 'nope.txt'));
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^tarantula: cannot read .*nope\.txt: ENOENT/);
    const notIndex = join(dir, 'notes.txt');
    await writeFile(notIndex, 'hello\n');
    expect(await run(notIndex)).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/line 1: not an index/) });
    expect((await run(dir)).code).toBe(1);
  });

  it.each([{ top: -1 }, { top: 1.5 }, { damping: 1 }, { damping: Number.NaN }, { format: 'xml' as 'tsv' }])('exits 2 for %o', async (bad) => {
    const { code, stdout, stderr } = await run(edges, bad);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toMatch(/^tarantula: pagerank: --(top|damping|format) must/);
  });

  it('exits 0 quietly when stdout is closed, and 1 on another write error', async () => {
    expect(await run(edges, {}, failing('EPIPE'))).toMatchObject({ code: 0, stderr: '' });
    expect(await run(edges, {}, failing('ENOSPC'))).toMatchObject({ code: 1, stderr: expect.stringMatching(/cannot write the ranking: write ENOSPC/) });
  });

  it('exits 0 with nothing on stderr when a real reader closes the pipe early (| head)', async () => {
    const big = join(dir, 'big.edges');
    await writeFile(big, Array.from({ length: 30_000 }, (_, i) => `http://h/${i}\thttp://h/${(i * 7) % 30_000}\n`).join(''));
    const module = fileURLToPath(new URL('./run-pagerank.ts', import.meta.url));
    const script = `import { runPagerank } from ${JSON.stringify(module)};
      process.exitCode = await runPagerank(process.argv[1], { top: 0, format: 'table', damping: 0.85 }, process.stdout);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, big], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });
});
