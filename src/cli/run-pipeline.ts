import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveFromPackage } from './resolve-from-package.js';
import { packagePath } from '../config/package-root.js';
import type { ConfigOverrides } from '../config/build-config.js';
import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load-config.js';
import { hasCrawlState } from '../state/crawl-state.js';
import type { Pipeline } from '../engine/pipeline.js';
import { commandLine, runCrawl } from '../app/run-crawl.js';
import { flushLogger } from '../log/create-logger.js';
import { openLog } from './open-log.js';
import { runShared } from './run-shared.js';
import { serveOption } from './serve-option.js';

/**
 * `tarantula run PIPELINE [CONF]`: loads a pipeline file — `pipelines/NAME.ts` (in the current folder,
 * else the ones shipped with tarantula), or a path — written
 * in TypeScript or JavaScript (TypeScript is compiled on the fly by tsx, no build step) and runs its
 * default export like `crawl` runs the default pipeline: same configuration, flags, state and sinks;
 * with `--frontier redis://…`, in each worker process over the shared frontier.
 *
 * @example
 * await runPipeline('linkgraph', undefined, {}) //=> 0, edges on stdout
 */
export async function runPipeline(name: string, confPath: string | undefined, overrides: ConfigOverrides): Promise<number> {
  const file = await findPipeline(name);
  const pipeline = await importPipeline(file);
  const { config, warnings } = await loadConfig(confPath, overrides, { canResume: hasCrawlState });
  const log = await openLog(config);
  for (const warning of warnings) log.warn(warning);
  const exitCode = config.frontier !== undefined
    ? await runShared(config, log, pipeline)
    : (await runCrawl(config, log, { ...commandLine(), pipeline, ...(await serveOption(config)) })).exitCode;
  await flushLogger(log);
  return exitCode;
}

/** The pipelines shipped with the package, found when the current folder has none of that name. */
const SHIPPED = packagePath('pipelines');

async function findPipeline(name: string): Promise<string> {
  const candidates = /[/\\]|\.[cm]?[jt]s$/.test(name)
    ? [name]
    : [`pipelines/${name}.ts`, `pipelines/${name}.js`, join(SHIPPED, `${name}.ts`)];
  for (const candidate of candidates) {
    const path = resolve(candidate);
    if (await access(path).then(() => true, () => false)) return path;
  }
  throw new ConfigError('arg-bad-value', name, `no pipeline file (looked for ${candidates.join(', ')})`);
}

/**
 * A file compiled as CommonJS (a `.ts` file in a project whose package.json has no `"type": "module"`,
 * or has none) comes back as `{ default: module.exports }`, where its `export default` is
 * `module.exports.default`.
 */
function defaultExport(mod: { default?: unknown }): unknown {
  const value = mod.default as { default?: unknown; __esModule?: boolean } | undefined;
  return typeof value === 'object' && value !== null && value.__esModule === true ? value.default : value;
}

/**
 * The cause in one line, without the stack or a require chain. A compile error's message starts with
 * a count ("Transform failed with 1 error:"); its next line is esbuild's `FILE:LINE:COLUMN: ERROR: …`.
 */
function firstLine(err: unknown): string {
  const lines = (err instanceof Error ? err.message : String(err)).split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines.find((line) => line.includes(': ERROR: ')) ?? lines[0] ?? 'unknown error';
}

async function importPipeline(file: string): Promise<Pipeline> {
  resolveFromPackage();
  const url = pathToFileURL(file).href;
  const mod = await (/\.[cm]?ts$/.test(file)
    ? import('tsx/esm/api').then((tsx) => tsx.tsImport(url, import.meta.url))
    : import(url)
  ).catch((err: unknown) => {
    throw new ConfigError('arg-bad-value', file, `cannot load the pipeline: ${firstLine(err)}`);
  }) as { default?: unknown };
  const pipeline = defaultExport(mod);
  if (typeof pipeline !== 'function') throw new ConfigError('arg-bad-value', file, 'the file has no default export of a pipeline (use definePipeline)');
  return pipeline as Pipeline;
}
