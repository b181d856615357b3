import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostSites, parseOverrides } from './host-sites.js';

describe('parseOverrides', () => {
  it('maps paths to header objects, status and null included', () => {
    const map = parseOverrides('{"/moved": {"status": 301, "Location": "/x"}, "/news": {"Last-Modified": null}}', 'f');
    expect(map.get('/moved')).toEqual({ status: 301, Location: '/x' });
    expect(map.get('/news')).toEqual({ 'Last-Modified': null });
  });

  it.each([
    ['[]', 'expected an object'],
    ['{"news": {}}', 'must start with /'],
    ['{"/a": "text/html"}', 'must map to an object'],
    ['{"/a": {"status": "301"}}', 'bad value for status'],
    ['{"/a": {"status": 99}}', 'bad value for status'],
    ['{"/a": {"X-List": ["a"]}}', 'bad value for X-List'],
  ])('refuses %s, naming the file', (text, why) => {
    expect(() => parseOverrides(text, 'site/_headers.json')).toThrow(/^site\/_headers\.json: /);
    expect(() => parseOverrides(text, 'site/_headers.json')).toThrow(why);
  });
});

describe('hostSites', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'host-sites-'));
    await mkdir(join(root, 'plain.test'));
    await writeFile(join(root, 'not-a-dir.test'), 'x');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('loads a site without _headers.json as having no overrides', async () => {
    const site = await hostSites(root)('plain.test');
    expect([site?.dir, site?.overrides.size]).toEqual([join(root, 'plain.test'), 0]);
  });

  it('finds no site for a missing folder or a file, and finds a folder created later', async () => {
    const sites = hostSites(root);
    expect(await sites('not-a-dir.test')).toBeUndefined();
    expect(await sites('late.test')).toBeUndefined();
    await mkdir(join(root, 'late.test'));
    await writeFile(join(root, 'late.test', '_headers.json'), '{"/a": {"X-A": "1"}}');
    expect((await sites('late.test'))?.overrides.get('/a')).toEqual({ 'X-A': '1' });
  });
});
