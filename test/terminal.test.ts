import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
import { runInTerminal, type TerminalRun } from './support/run-in-terminal.js';
import { tempDir } from './support/temp-dir.js';

/**
 * SPEC §11 at a real pseudo-terminal (util-linux `script`): the demo web crawled slowly enough
 * (one thread, 200 ms between two requests to a host, 12 pages on 3 hosts: at least 0.6 s) for the
 * progress line to be drawn a few times.
 */
const SLOW = ['--max-pages', '12', '--threads', '1', '--min-delay', '200', '--delay-factor', '0'];

const SGR = /\x1b\[[0-9;]*m/g;
const CLEAR = '\r\x1b[K';
const TIME = String.raw`\d\d:\d\d:\d\d`;
/** The progress line; the ETA once a page is in (before, there is no rate to go by). */
const PROGRESS = /(\d+) pages {2}\d+\.\d\/s {2}queued \d+ {2}in flight [01] {2}failures \d+ {2}\d+:\d\d:\d\d( {2}ETA \d+:\d\d:\d\d)?/g;

let tmp: Awaited<ReturnType<typeof tempDir>>;
let colour: TerminalRun;
let plain: TerminalRun;
let forced: TerminalRun;
beforeAll(async () => {
  tmp = await tempDir();
  const run = (name: string, env: NodeJS.ProcessEnv) => runInTerminal(['demo', '--repository', join(tmp.dir, name), ...SLOW], env, { cwd: tmp.dir });
  [colour, plain, forced] = await Promise.all([
    run('colour', { TERM: 'xterm-256color' }),
    run('plain', { TERM: 'xterm-256color', NO_COLOR: '1' }),
    run('forced', { TERM: 'dumb', FORCE_COLOR: '1' }),
  ]);
}, 120_000);
afterAll(() => tmp.remove());

/** The lines a person sees once every redraw is done: what follows the last clear of each line. */
const seen = (screen: string): string[] =>
  screen
    .replace(SGR, '')
    .split(/\r?\n/)
    .map((line) => line.slice(line.lastIndexOf(CLEAR) + 1).replace(/\r|\x1b\[K/g, ''))
    .filter((line) => line !== '');

describe('at a terminal', () => {
  it('prints short human lines, a page line as time, status, URL and ms, never JSON', () => {
    expect(colour.code, colour.screen).toBe(0);
    const lines = seen(colour.screen);
    expect(lines.some((l) => l.startsWith('{'))).toBe(false);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${TIME} INFO crawl started ${tmp.dir.replace(/[.+]/g, '\\$&')}/colour$`)));
    const pages = lines.filter((l) => new RegExp(`^${TIME} 200 http://`).test(l));
    expect(pages).toHaveLength(12);
    for (const line of pages) expect(line).toMatch(new RegExp(`^${TIME} 200 http://[a-z.]+\\.test:\\d+/\\S* \\d+ ms$`));
  });

  it('keeps one progress line at the bottom, with ETA, that log lines scroll above without tearing', () => {
    const screen = colour.screen.replace(SGR, '');
    const draws = [...screen.matchAll(PROGRESS)].map((m) => Number(m[1]));
    expect(draws.length).toBeGreaterThanOrEqual(1);
    // After its first page the crawl lasts at least 0.6 s (12 pages on 3 hosts: one host has 4, 3 waits of
    // 200 ms), longer than the 0.5 s between two draws: at least one draw has pages in, and an ETA.
    expect(screen).toMatch(/[1-9]\d* pages .* {2}ETA \d+:\d\d:\d\d/);
    expect(draws).toEqual([...draws].sort((a, b) => a - b));
    // On every row, whatever was written before the last clear is a progress line (or nothing):
    // a log line always clears the row first, so it never shares a row with the progress line…
    for (const row of screen.split('\n')) {
      const pieces = row.replace(/\r$/, '').split(CLEAR);
      for (const piece of pieces.slice(0, -1)) expect(piece).toMatch(new RegExp(`^(${PROGRESS.source})?$`));
      const last = pieces[pieces.length - 1]!;
      if (new RegExp(PROGRESS.source).test(last)) expect(last).toMatch(new RegExp(`^${PROGRESS.source}$`));
    }
    // …and once the crawl is over, no progress line is left on the screen.
    expect(seen(colour.screen).filter((l) => new RegExp(PROGRESS.source).test(l))).toEqual([]);
  });

  it('colours status codes, levels and times where the terminal has colours', () => {
    expect(colour.screen).toMatch(/\x1b\[32m200\x1b\[39m http:\/\//);
    expect(colour.screen).toMatch(/\x1b\[36mINFO\x1b\[39m/);
    expect(colour.screen).toMatch(new RegExp(`\\x1b\\[2m${TIME}\\x1b\\[22m`));
  });

  it('has no colour with NO_COLOR, and the same lines', () => {
    expect(plain.code, plain.screen).toBe(0);
    expect(plain.screen).not.toMatch(SGR);
    expect(plain.screen.match(PROGRESS)?.length ?? 0).toBeGreaterThanOrEqual(1);
    expect(seen(plain.screen)).toContainEqual(expect.stringMatching(/^Finished: 12 pages /));
    expect(seen(plain.screen).filter((l) => / 200 http:\/\//.test(l))).toHaveLength(12);
  });

  it('has colour with FORCE_COLOR, even where TERM says the terminal has none', () => {
    expect(forced.code, forced.screen).toBe(0);
    expect(forced.screen).toMatch(/\x1b\[32m200\x1b\[39m/);
  });

  it('ends with a short human block: pages, failures, bytes, time, where things are, the report command', () => {
    const lines = seen(colour.screen);
    const at = lines.findIndex((l) => l.startsWith('Finished: '));
    expect(lines[at]).toMatch(/^Finished: 12 pages \(\d+ indexed\), 0 failures, [\d.]+ KiB in [\d.]+ s \([\d.]+ pages\/s\)$/);
    const repo = join(tmp.dir, 'colour');
    expect(lines.slice(at + 1, at + 5)).toEqual([
      `  mirror:  ${repo}/`,
      `  index:   ${join(repo, 'index.txt')}`,
      `  stats:   ${join(repo, 'stats.json')}`,
      `  report:  tarantula report ${repo}`,
    ]);
  });
});

describe('Ctrl-C at a terminal', () => {
  it('clears the progress line, says the crawl was interrupted and what is pending, and the same command resumes', async () => {
    const args = ['demo', '--repository', join(tmp.dir, 'stopped'), ...SLOW];
    const first = await runInTerminal(args, { TERM: 'dumb' }, { cwd: tmp.dir, interruptWhen: new RegExp(`${TIME} 200 http://[^\\r]*\\r\\n[^]*${TIME} 200 http://`) });
    expect(first.code, first.screen).toBe(130);
    const lines = seen(first.screen);
    const block = lines.find((l) => l.startsWith('Interrupted: '));
    expect(block).toMatch(/^Interrupted: \d+ pages? \(\d+ indexed\), 0 failures, /);
    const pending = Number(/^ {2}(\d+) URLs? pending: run the same command again to resume$/m.exec(lines.join('\n'))?.[1]);
    expect(pending).toBeGreaterThan(0);
    expect(lines.filter((l) => new RegExp(PROGRESS.source).test(l))).toEqual([]);
    const fetched = Number(/^Interrupted: (\d+) page/.exec(block!)![1]);
    const second = await runInTerminal(args, { TERM: 'dumb' }, { cwd: tmp.dir });
    expect(second.code, second.screen).toBe(0);
    expect(seen(second.screen)).toContainEqual(expect.stringMatching(new RegExp(`^Finished: ${12 - fetched} pages? `)));
  });
});

describe('stdout piped, stderr at a terminal', () => {
  it('keeps stdout for data and the human lines, in colour, on the terminal', async () => {
    const index = join(tmp.dir, 'index.jsonl');
    const run = await runInTerminal(['demo', '--repository', join(tmp.dir, 'split'), '--index', '-', '--format', 'jsonl'], { TERM: 'xterm-256color' }, { cwd: tmp.dir, stdoutTo: index });
    expect(run.code, run.screen).toBe(0);
    const records = (await readFile(index, 'utf8')).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { url: string });
    expect(records.length).toBeGreaterThan(10);
    expect(run.screen).toMatch(/\x1b\[32m200\x1b\[39m http:\/\//);
    expect(run.screen).not.toContain('"url"');
  });
});

describe('piped', () => {
  it('logs JSON lines to stderr, each a pino record, and no progress line', async () => {
    const repo = join(tmp.dir, 'piped');
    const run = await runCli(['crawl', '--seed', 'http://127.0.0.1:1/', '--repository', repo, '--max-pages', '1', '--connect-timeout', '500', '--max-retries', '0'], { cwd: tmp.dir });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(JSON.parse(line)).toEqual(expect.objectContaining({ level: expect.any(Number), time: expect.any(String), msg: expect.any(String) }));
    expect(run.stderr).not.toContain('\x1b[');
  });
});
