import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config/config-error.js';
import type { Candidate } from '../model/crawl-request.js';
import { inputSeeds, openSeedInputs } from './input-seeds.js';

async function until(check: () => boolean): Promise<void> {
  for (const end = Date.now() + 10_000; !check(); await sleep(5)) if (Date.now() > end) throw new Error('timed out waiting');
}

describe('openSeedInputs and inputSeeds', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'input-seeds-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the files, then stdin, in order; each seed is announced before it is emitted; bad lines warn with FILE:LINE', async () => {
    const file = join(dir, 'urls.txt');
    await writeFile(file, 'http://a.test/\n\nnot a url\n# note\nhttp://b.test/');
    const stdin = new PassThrough();
    stdin.end('http://c.test/\r\n');
    const announced: string[] = [];
    const warnings: string[] = [];
    const seeds$ = inputSeeds(await openSeedInputs([file, '-'], stdin), {
      room: () => true,
      seed: (url) => announced.push(url),
      warn: (message) => warnings.push(message),
    });
    const seeds = await lastValueFrom(seeds$.pipe(toArray()));
    expect(seeds).toEqual(['http://a.test/', 'http://b.test/', 'http://c.test/'].map((href): Candidate => ({ href, depth: 0, seed: true })));
    expect(announced).toEqual(['http://a.test/', 'http://b.test/', 'http://c.test/']);
    expect(warnings).toEqual([`${file}:3: "not a url" is not an absolute http(s) URL; skipped`]);
  });

  it('reads nothing from a stdin an earlier crawl of the process finished or let go (--watch), and says nothing about it', async () => {
    const stdin = new PassThrough();
    stdin.destroy();
    const warnings: string[] = [];
    const seeds = await lastValueFrom(inputSeeds(await openSeedInputs(['-'], stdin), { room: () => true, seed: () => {}, warn: (m) => warnings.push(m) }).pipe(toArray()));
    expect([seeds, warnings]).toEqual([[], []]);
  });

  it('refuses a missing file or a folder before reading anything, naming it', async () => {
    await expect(openSeedInputs([join(dir, 'nope.txt')], new PassThrough())).rejects.toThrow(ConfigError);
    await expect(openSeedInputs([join(dir, 'nope.txt')], new PassThrough())).rejects.toThrow(/nope\.txt: cannot read the input file: ENOENT/);
    await expect(openSeedInputs([dir], new PassThrough())).rejects.toThrow(`${dir}: cannot read the input file: it is a directory`);
  });

  it('reads no further chunk while the frontier has no room, and goes on when it has', async () => {
    const stdin = new PassThrough();
    let room = true;
    const seeds: string[] = [];
    const sub = inputSeeds(await openSeedInputs(['-'], stdin), { room: () => room, seed: () => {}, warn: () => {} }).subscribe((c) => seeds.push(c.href));
    room = false;
    stdin.write('http://a.test/1\nhttp://a.test/2\n');
    await until(() => seeds.length === 2); // every line of a chunk taken is emitted, room or not
    stdin.write('http://a.test/3\n');
    await sleep(100);
    expect(seeds).toHaveLength(2);
    room = true;
    await until(() => seeds.length === 3);
    sub.unsubscribe();
    expect(stdin.destroyed).toBe(true);
  });
});
