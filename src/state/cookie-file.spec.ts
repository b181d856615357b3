import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { CookieFile } from './cookie-file.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
let path: string;
beforeEach(async () => {
  tmp = await tempDir();
  path = join(tmp.dir, 'cookies.json');
});
afterEach(() => tmp.remove());

describe('CookieFile', () => {
  it('starts empty without a file, and opens what it saved', async () => {
    const warnings: string[] = [];
    const first = await CookieFile.open(path, (w) => warnings.push(w));
    expect(first.jar.getCookieStringSync('http://a.test/')).toBe('');
    first.jar.setCookieSync('session=abc; Path=/; Max-Age=3600', 'http://a.test/');
    await first.save();
    const again = await CookieFile.open(path, (w) => warnings.push(w));
    expect(again.jar.getCookieStringSync('http://a.test/x')).toBe('session=abc');
    expect(warnings).toEqual([]);
  });

  it('sets a file that is no jar aside, with a warning naming it, and starts empty', async () => {
    await writeFile(path, '{"cookies": oops');
    const warnings: string[] = [];
    const file = await CookieFile.open(path, (w) => warnings.push(w));
    expect(file.jar.getCookieStringSync('http://a.test/')).toBe('');
    expect(warnings).toEqual([expect.stringContaining(`${path} is not a cookie jar`)]);
    expect(await readFile(`${path}.broken`, 'utf8')).toBe('{"cookies": oops');
  });

  it('saves a change by itself within a second', async () => {
    const file = await CookieFile.open(path, () => undefined);
    file.jar.setCookieSync('k=v; Path=/; Max-Age=60', 'http://a.test/');
    file.changed();
    file.changed();
    for (const end = Date.now() + 5000; !(await readFile(path, 'utf8').catch(() => '')).includes('"k"'); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() > end) throw new Error('not saved');
    }
    expect(JSON.parse(await readFile(path, 'utf8')).cookies).toHaveLength(1);
  });
});
