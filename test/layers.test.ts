import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The folders of src/, bottom up: a module may import its own folder and the folders before it,
 * never one after it (README "Layout"). `index.ts`, the library's entry, sits on top.
 */
const LAYERS = [
  'model', 'config', 'log', 'url', 'parse', 'fetch', 'robots', 'sitemap', 'store', 'output', 'archive', 'input', 'pagerank',
  'demo', 'frontier', 'state', 'workers', 'stages', 'sinks', 'engine', 'app', 'distributed', 'report', 'serve', 'cli', 'index.ts', 'parts.ts',
] as const;

const SRC = resolve(import.meta.dirname, '../src');

function modules(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.ts$/.test(entry.name) && !/\.(spec|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The project modules a module imports or re-exports (type-only imports included: they bind the layers too). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/g)].map((m) => resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
}

const layerOf = (file: string): number => {
  const path = relative(SRC, file);
  const name = path.includes('/') ? path.slice(0, path.indexOf('/')) : path;
  const index = (LAYERS as readonly string[]).indexOf(name);
  if (index < 0) throw new Error(`src/${path} is in no layer: add its folder to LAYERS`);
  return index;
};

const graph = new Map(modules().map((file) => [file, importsOf(file)]));
const name = (file: string): string => relative(SRC, file);

/** Strongly connected components of more than one module, or a module importing itself (Tarjan). */
function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do component.push(name((w = stack.pop()!)));
    while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the layers of src/', () => {
  it('every folder is a layer', () => {
    for (const file of graph.keys()) expect(() => layerOf(file)).not.toThrow();
  });

  it('no module imports a module of a layer above its own', () => {
    const upward = [...graph].flatMap(([file, deps]) =>
      deps.filter((dep) => graph.has(dep) && layerOf(dep) > layerOf(file)).map((dep) => `${name(file)} → ${name(dep)}`),
    );
    expect(upward).toEqual([]);
  });

  it('no two modules import each other, directly or through others', () => {
    expect(cycles()).toEqual([]);
  });

  it('every folder says what it holds and which layers it may import', () => {
    LAYERS.filter((layer) => !layer.endsWith('.ts')).forEach((folder, i, folders) => {
      const readme = readFileSync(join(SRC, folder, 'README.md'), 'utf8');
      expect(readme, folder).toContain(`**Layer ${i + 1} of ${folders.length}.** May import ${i === 0 ? 'nothing' : folders.slice(0, i).map((f) => `\`${f}\``).join(', ')}`);
    });
  });

  it('every import names a module that exists', () => {
    const missing = [...graph].flatMap(([file, deps]) => deps.filter((dep) => !graph.has(dep) && !/\.(d\.ts|json)$/.test(dep) && !dep.endsWith('.d.ts')).map((dep) => `${name(file)} → ${name(dep)}`));
    expect(missing).toEqual([]);
  });
});
