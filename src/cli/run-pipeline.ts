import { access } from 'node:fs/promises';
import { register } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packagePath } from '../config/package-root.js';
import type { ConfigOverrides } from '../config/build-config.js';
import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load-config.js';
import { hasCrawlState } from '../state/crawl-state.js';
import type { Pipeline } from '../engine/pipeline.js';
import { commandLine, runCrawl } from '../app/run-crawl.js';
import { flushLogger } from '../log/create-logger.js';
import { openLog } from './open-log.js';
import { serveOption } from './serve-option.js';

/**
 * `tarantula run PIPELINE [CONF]`: loads a pipeline file — `pipelines/NAME.ts` (in the current folder,
 * else the ones shipped with tarantula), or a path — written
 * in TypeScript or JavaScript (TypeScript is compiled on the fly by tsx, no build step) and runs its
 * default export like `crawl` runs the default pipeline: same configuration, flags, state and sinks.
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
  const { exitCode } = await runCrawl(config, log, { ...commandLine(), pipeline, ...(await serveOption(config)) });
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
 * Lets a pipeline file anywhere `import ... from 'tarantula'` (and from `rxjs`, or any other package
 * tarantula has): what the file's own folder cannot resolve is resolved from this installation.
 */
function resolveFromHere(): void {
  const parentURL = pathToFileURL(packagePath('package.json')).href;
  const hook = `export async function resolve(specifier, context, next) {
    try { return await next(specifier, context); }
    catch (err) { if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err; return next(specifier, { ...context, parentURL: ${JSON.stringify(parentURL)} }); }
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}

async function importPipeline(file: string): Promise<Pipeline> {
  resolveFromHere();
  const url = pathToFileURL(file).href;
  const mod = (/\.[cm]?ts$/.test(file)
    ? await (await import('tsx/esm/api')).tsImport(url, import.meta.url)
    : await import(url)) as { default?: unknown };
  const pipeline = mod.default;
  if (typeof pipeline !== 'function') throw new ConfigError('arg-bad-value', file, 'the file has no default export of a pipeline (use definePipeline)');
  return pipeline as Pipeline;
}
