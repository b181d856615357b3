/**
 * Where a crawl's CPU time goes, from V8 CPU profiles (`node --cpu-prof`, or
 * `npm run bench -- --pages 20000 --cpu-prof DIR`; one file per thread):
 *
 *   npx tsx bench/profile-summary.ts DIR/CPU.*.cpuprofile [--top 30]
 *   npx tsx bench/profile-summary.ts DIR/CPU.*.cpuprofile --timeline 250   # busy time by stage, window by window
 *
 * Self time is grouped by crawl stage: a frame counts for the stage of its nearest frame, itself or
 * a caller, whose script belongs to a stage (so a native `writeBuffer` called by the mirror store
 * is store/fs, and one called by the index writer is index). Frames in a bundle
 * (`dist/tarantula.mjs`, `dist/workers/document-worker.js`) are traced back to their `src/` or
 * `node_modules/` file through the source map beside the bundle, which must be the one profiled.
 * The archive is the one stage that also takes what its callees do (`ENCLOSING`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/**
 * Scripts that decide a frame's stage, first match wins; node's crypto, URL and TextDecoder count as the work they do.
 * Our modules are matched under src/ (a bundle's sources, or tsx) and dist/ (tsc's output, run unbundled).
 */
const STAGES: readonly [stage: string, pattern: RegExp][] = [
  ['fetch/undici', /node_modules\/undici\/|node:internal\/deps\/undici|\/(src|dist)\/fetch\/(?!read-body)/],
  ['decode', /\/(src|dist)\/(fetch\/read-body|parse\/(encoding-label|sniff-encoding|meta-prescan))|node_modules\/chardet\/|node:internal\/encoding|node:zlib/],
  ['md5', /node:internal\/crypto|\/(src|dist)\/url\/url-md5/],
  ['parse', /node_modules\/(htmlparser2|entities|domhandler)\/|\/(src|dist)\/(parse\/|stages\/parse-document)/],
  ['normalize', /\/(src|dist)\/(url\/(normalize-url|percent-escapes|url-parts|query-params)|stages\/normalize-links)|node:internal\/url/],
  ['filter', /\/(src|dist)\/(url\/|stages\/(follow-policy|link-policy|trap-limits|host-limit|dedup|admissible|robots-allowed))/],
  ['robots', /\/(src|dist)\/(robots\/|stages\/obey-robots)|node_modules\/robots-parser/],
  ['store/fs', /\/(src|dist)\/(store\/|stages\/store-document)/],
  ['index', /\/(src|dist)\/(output\/|sinks\/write-index)|node_modules\/@?fast-csv/],
  [
    'log/stats',
    /node_modules\/(pino|pino-std-serializers|@pinojs\/redact|sonic-boom|thread-stream|quick-format-unescaped|safe-stable-stringify|atomic-sleep|on-exit-leak-free)\/|\/(src|dist)\/(log\/|sinks\/|engine\/crawl-stats)/,
  ],
  ['state journal', /\/(src|dist)\/state\//],
  ['frontier', /\/(src|dist)\/frontier\//],
  ['rxjs overhead', /node_modules\/rxjs\//],
  // Not node:internal/worker or its MessagePort: a worker thread's whole start-up runs under them.
  ['worker messaging', /\/(src|dist)\/workers\//],
  // `tarantula demo` serves its sites from the crawler's own process.
  ['demo server', /\/(src|dist)\/demo\//],
  ['engine/stages', /\/(src|dist)\/(engine|stages|cli|config)\//],
];

/** Node internals that count for whoever called them (the store's writes, undici's socket), or as themselves when nobody did. */
const FALLBACKS: readonly [stage: string, pattern: RegExp][] = [
  ['fs (no caller)', /^node:(fs|internal\/fs)/],
  ['node net/streams/events (no caller)', /^node:/],
];

/**
 * Work that is charged to a stage when any frame of the stack, however far up, belongs to it: the
 * archive's deflate and SHA-1s run in node:zlib and node:crypto, which would otherwise count as decode and md5.
 */
const ENCLOSING: readonly [stage: string, pattern: RegExp][] = [['archive', /node_modules\/warcio\/|\/(src|dist)\/archive\//]];

const SPECIAL = new Map([['(garbage collector)', 'GC'], ['(idle)', 'idle'], ['(program)', 'V8/program']]);

const firstMatch = (url: string, table: readonly [string, RegExp][]): string | undefined => table.find(([, p]) => p.test(url))?.[0];

/** Where a frame's code was written: a source file (absolute path) or the profiled script's URL, and a 0-based line. */
export interface Origin {
  readonly file: string;
  readonly line: number;
}

interface LoadedMap {
  readonly path: string;
  readonly map: SourceMap;
  readonly root: string;
}

function readSourceMap(url: string): LoadedMap | undefined {
  if (!/^file:.*\.m?js$/.test(url)) return undefined;
  const path = `${fileURLToPath(url)}.map`;
  if (!existsSync(path)) return undefined;
  const payload = JSON.parse(readFileSync(path, 'utf8')) as { sourceRoot?: string };
  return { path, map: new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]), root: resolve(dirname(path), payload.sourceRoot ?? '') };
}

/**
 * The source maps beside profiled scripts (`dist/tarantula.mjs.map`), each read when a frame of its
 * script is first located: a whole crawl is in two bundles, which say nothing about stages.
 *
 * @example
 * // scanHtml, minified to `ee` in one build
 * new SourceMaps().locate({ url: 'file:///work/main/dist/workers/document-worker.js', lineNumber: 1, columnNumber: 75566, functionName: 'ee' })
 * //=> { file: '/work/main/src/parse/html-scanner.ts', line: 93 }
 */
export class SourceMaps {
  private readonly byUrl = new Map<string, LoadedMap | undefined>();

  /** V8's 0-based line and column of a function's start, traced back; the frame's own when no map covers it. */
  locate(frame: CallFrame): Origin {
    const loaded = this.mapOf(frame.url);
    const entry = loaded?.map.findEntry(frame.lineNumber, frame.columnNumber);
    if (loaded === undefined || entry === undefined || !('originalSource' in entry)) return { file: frame.url, line: frame.lineNumber };
    return { file: resolve(loaded.root, entry.originalSource), line: entry.originalLine };
  }

  /** The map files read so far. */
  get files(): string[] {
    return [...this.byUrl.values()].flatMap((map) => (map ? [map.path] : []));
  }

  private mapOf(url: string): LoadedMap | undefined {
    if (!this.byUrl.has(url)) this.byUrl.set(url, readSourceMap(url));
    return this.byUrl.get(url);
  }
}

/** A script or source as a reader knows it: from node_modules/, src/ or dist/ on. */
const shortName = (file: string): string => file.replace(/^(file:\/\/)?\/.*?\/(node_modules|src|dist)\//, '$2/');

/** Each profile node's stage, decided as the head of this file says; with the origins that decided them. */
function stageOfNodes(profile: Profile, maps: SourceMaps): { stageOf: (id: number) => string; origin: Map<number, Origin>; byId: Map<number, ProfileNode> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const origin = new Map(profile.nodes.map((n) => [n.id, maps.locate(n.callFrame)]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // A frame's stage is that of the nearest frame, itself or a caller, whose script decides one.
  const enclosed = new Map<number, string | undefined>();
  const enclosing = (id: number | undefined): string | undefined => {
    if (id === undefined) return undefined;
    if (!enclosed.has(id)) enclosed.set(id, firstMatch(origin.get(id)!.file, ENCLOSING) ?? enclosing(parent.get(id)));
    return enclosed.get(id);
  };
  const decided = new Map<number, string | undefined>();
  const decide = (id: number): string | undefined => {
    if (decided.has(id)) return decided.get(id);
    const up = parent.get(id);
    const stage =
      SPECIAL.get(byId.get(id)!.callFrame.functionName) ??
      enclosing(id) ??
      firstMatch(origin.get(id)!.file, STAGES) ??
      (up === undefined ? undefined : decide(up));
    decided.set(id, stage);
    return stage;
  };
  const fallback = (id: number | undefined): string | undefined =>
    id === undefined ? undefined : (firstMatch(origin.get(id)!.file, FALLBACKS) ?? fallback(parent.get(id)));
  const stageOf = (id: number): string => decide(id) ?? fallback(id) ?? 'other';
  return { stageOf, origin, byId };
}

/**
 * @example
 * summarize(JSON.parse(readFileSync('CPU.cpuprofile', 'utf8'))).stages[0] //=> ['parse', 1234.5]
 */
export function summarize(
  profile: Profile,
  maps = new SourceMaps(),
): { totalMs: number; stages: [string, number][]; functions: [string, string, number][] } {
  const { stageOf, origin, byId } = stageOfNodes(profile, maps);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const stages = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  for (const [id, us] of selfUs) {
    const ms = us / 1000;
    const stage = stageOf(id);
    totalMs += ms;
    stages.set(stage, (stages.get(stage) ?? 0) + ms);
    const { file, line } = origin.get(id)!;
    const name = `${byId.get(id)!.callFrame.functionName || '(anonymous)'} ${shortName(file)}:${line + 1}`;
    const key = `${stage}\t${name}`; // one native name (close, write) serves several stages
    functions.set(key, (functions.get(key) ?? 0) + ms);
  }
  const desc = <T extends unknown[]>(rows: T[], at: number): T[] => rows.sort((a, b) => (b[at] as number) - (a[at] as number));
  return {
    totalMs,
    stages: desc([...stages], 1),
    functions: desc([...functions].map(([key, ms]): [string, string, number] => {
      const [stage, name] = key.split('\t') as [string, string];
      return [name, stage, ms];
    }), 2),
  };
}

/**
 * Busy time by stage in windows of `windowMs` from the profile's start: what a short crawl's first
 * and last moments go to (loading, the worker's start, exit) against its steady state.
 *
 * @example
 * timeline(profile, 500)[0] //=> { startMs: 0, busyMs: 412.3, stages: [['V8/program', 180.1], …] }
 */
export function timeline(profile: Profile, windowMs: number, maps = new SourceMaps()): { startMs: number; busyMs: number; stages: [string, number][] }[] {
  const { stageOf } = stageOfNodes(profile, maps);
  const windows: Map<string, number>[] = [];
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    atUs += profile.timeDeltas[i] ?? 0;
    const stage = stageOf(id);
    if (stage === 'idle') return;
    const w = Math.floor(atUs / 1000 / windowMs);
    for (let k = windows.length; k <= w; k++) windows.push(new Map());
    // A sample's time is the delta before the next one; the last sample's, the one before it.
    const us = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    windows[w]!.set(stage, (windows[w]!.get(stage) ?? 0) + us / 1000);
  });
  return windows.map((stages, w) => ({
    startMs: w * windowMs,
    busyMs: [...stages.values()].reduce((a, b) => a + b, 0),
    stages: [...stages].sort((a, b) => b[1] - a[1]),
  }));
}

function printTimeline(file: string, windowMs: number): void {
  console.log(`profile ${file}: busy ms a window of ${windowMs} ms, and its four largest stages`);
  for (const { startMs, busyMs, stages } of timeline(JSON.parse(readFileSync(file, 'utf8')) as Profile, windowMs))
    console.log(`${String(startMs).padStart(7)} ms ${busyMs.toFixed(0).padStart(5)}  ${stages.slice(0, 4).map(([s, ms]) => `${s} ${ms.toFixed(0)}`).join(', ')}`);
}

function printSummary(file: string, top: number): void {
  const maps = new SourceMaps();
  const { totalMs, stages, functions } = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, maps);
  const busy = totalMs - (stages.find(([s]) => s === 'idle')?.[1] ?? 0);
  const pct = (ms: number): string => `${((ms / busy) * 100).toFixed(1).padStart(5)}%`;
  console.log(`profile ${file}: ${(totalMs / 1000).toFixed(2)} s sampled, ${(busy / 1000).toFixed(2)} s busy (percentages are of busy time)`);
  // A rebuilt bundle's map still resolves every position, to the wrong functions.
  for (const map of maps.files)
    console.log(statSync(map).mtimeMs > statSync(file).mtimeMs ? `WARNING: ${map} is newer than the profile; stages are guesses` : `source map ${map}`);
  console.log(`\n${'stage'.padEnd(36)}   self ms   share`);
  for (const [stage, ms] of stages) if (stage !== 'idle') console.log(`${stage.padEnd(36)} ${ms.toFixed(0).padStart(9)}  ${pct(ms)}`);
  console.log(`\ntop ${top} functions by self time`);
  for (const [name, stage, ms] of functions.filter(([, s]) => s !== 'idle').slice(0, top))
    console.log(`${ms.toFixed(0).padStart(7)} ms ${pct(ms)}  ${stage.padEnd(36)} ${name}`);
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const args = process.argv.slice(2);
  const option = (name: string): number | undefined => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : undefined);
  const top = option('--top') ?? 30;
  const windowMs = option('--timeline');
  const files = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  if (files.length === 0) throw new Error('usage: profile-summary.ts FILE.cpuprofile... [--top N] [--timeline MS]');
  files.forEach((file, i) => {
    if (i > 0) console.log('');
    if (windowMs === undefined) printSummary(file, top);
    else printTimeline(file, windowMs);
  });
}
