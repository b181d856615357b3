import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reservedNames } from './reserved-names.js';

describe('reservedNames', () => {
  it('adds the first name of each path inside the repository to the crawl\'s own files, lowercase', () => {
    expect(reservedNames('out', ['out/Logs/crawl.log', 'out/index.jsonl', resolve('out/crawl'), undefined, ''])).toEqual([
      'index.txt', 'stats.json', 'report.html', 'logs', 'index.jsonl', 'crawl',
    ]);
  });

  it('leaves out paths outside the repository, and the repository itself', () => {
    expect(reservedNames('out', ['elsewhere/index.jsonl', '../x', 'out', 'outside/log', '/tmp/out/x'])).toEqual(['index.txt', 'stats.json', 'report.html']);
  });
});
