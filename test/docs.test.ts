import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConf } from '../src/config/parse-conf.js';
import { PAGE, regenerate } from '../scripts/configuration-page.js';

const ROOT = join(import.meta.dirname, '..');

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` makes from the key table (run it after changing a key)', async () => {
    const page = await readFile(PAGE, 'utf8');
    expect(page).toBe(regenerate(page));
  });

  it('names every key of the shipped Crawler.conf', async () => {
    const page = await readFile(PAGE, 'utf8');
    const keys = parseConf(await readFile(join(ROOT, 'Crawler.conf'), 'utf8'), 'Crawler.conf').map((s) => s.key);
    expect(keys.length).toBeGreaterThan(40);
    for (const key of keys) expect(page, key).toContain(`### \`${key}\``);
  });
});
