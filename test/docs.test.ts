import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string): string => heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replaceAll(' ', '-');

async function anchors(file: string): Promise<Set<string>> {
  const text = (await readFile(file, 'utf8')).replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1]!)));
}

describe('the manual (README.md and docs/)', () => {
  it('speaks of the product, not of its development: no issue numbers, rounds or times of day', async () => {
    const folders = (await readdir(join(ROOT, 'src'), { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => `src/${d.name}/README.md`);
    const docs = (await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    const diary = /\bissues? #?[0-9]|#[0-9]{2}\b|\btonight\b|\bthis (evening|morning|afternoon|session|round|wave)\b|\bround [0-9]/i;
    const found: string[] = [];
    for (const page of ['README.md', 'bench/README.md', ...docs, ...folders.filter((f) => existsSync(join(ROOT, f)))]) {
      (await readFile(join(ROOT, page), 'utf8')).split('\n').forEach((line, i) => diary.test(line) && found.push(`${page}:${i + 1}: ${line.trim()}`));
    }
    expect(found).toEqual([]);
  });

  it('links only to files that exist and to headings that exist', async () => {
    const pages = ['README.md', ...(await readdir(join(ROOT, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const page of pages) {
      const text = (await readFile(join(ROOT, page), 'utf8')).replace(/^```[\s\S]*?^```/gm, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), path);
        if (!existsSync(file)) broken.push(`${page}: ${target}`);
        else if (anchor !== undefined && !(await anchors(file)).has(anchor)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
