import { describe, expect, it } from 'vitest';
import type { CrawlerConfig } from '../model/config.js';
import { KEYS } from './keys.js';
import { usage } from './usage.js';

describe('usage', () => {
  const text = usage();

  it('lists every command', () => {
    for (const cmd of ['crawl [CONF] [--watch]', 'run PIPELINE [CONF]', 'pagerank INDEX', 'report REPOSITORY', 'merge INTO REPOSITORY…', 'demo', '--help | --version']) {
      expect(text).toContain(`tarantula ${cmd}`);
    }
  });

  it('lists every key as a flag with its default, the short flags beside their keys', () => {
    for (const field of Object.keys(KEYS) as (keyof CrawlerConfig)[]) {
      const line = text.split('\n').find((l) => l.startsWith('  -') && l.includes(`--${KEYS[field].name} `));
      expect(line, field).toBeDefined();
      expect(line).toMatch(/default \S+$/);
    }
    expect(text).toMatch(/--seed, --starting-points URL +absolute http\(s\) URLs; default none/);
    expect(text).toMatch(/--traversal, --traversal-algorithm bfs\|dfs +default bfs/);
    expect(text).toMatch(/ {2}-i, --input-file, --input-files FILE +files of URLs \(- = stdin\); default none/);
    expect(text).toMatch(/--max-crawl-delay N +seconds; default 60\n/);
  });
});
