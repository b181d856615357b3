import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as library from '../src/index.js';
import * as parts from '../src/parts.js';

const ROOT = resolve(import.meta.dirname, '..');

describe('the library surface', () => {
  it('gives a pipeline author at most 45 runtime names, the internals none', () => {
    const names = Object.keys(library);
    expect(names.length).toBeLessThanOrEqual(45);
    for (const name of ['crawl', 'definePipeline', 'defaultSpec', 'defaultSinks', 'passOutcomes', 'loadConfig']) expect(names).toContain(name);
    for (const internal of ['FORMATTERS', 'dropWhen', 'parseArgs', 'DEFAULT_CONFIG']) expect(names).not.toContain(internal);
    for (const internal of ['FORMATTERS', 'parseArgs', 'DEFAULT_CONFIG']) expect(Object.keys(parts)).not.toContain(internal);
  });

  it('names nothing twice: the building blocks are in tarantula/parts only', () => {
    expect(Object.keys(parts).filter((name) => name in library)).toEqual([]);
  });

  it('is what every shipped pipeline imports from, through the package exports', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    expect(Object.keys(manifest.exports).sort()).toEqual(['.', './parts']);
    for (const file of readdirSync(join(ROOT, 'pipelines'))) {
      const text = readFileSync(join(ROOT, 'pipelines', file), 'utf8');
      const from = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      expect(from.every((spec) => spec === 'rxjs' || spec === 'tarantula' || spec === 'tarantula/parts'), `${file}: ${from.join(', ')}`).toBe(true);
      expect(text, `${file} keeps the crawl resumable`).toContain('defaultSinks(ctx');
    }
  });
});
