import { setFlagsFromString } from 'node:v8';
import { ConfigError } from '../config/config-error.js';
import { parseArgs } from '../config/parse-args.js';
import { EXIT } from '../app/exit-status.js';
import { WORKER_ARGV_ENV } from '../distributed/worker-env.js';
import { passwordsHidden } from '../config/without-password.js';
import { boundBacktracking } from '../config/bounded-regexp.js';

// Each command's code is loaded when it runs (the bundle is split at these imports): `--version`
// reads no crawler, a crawl no report, no merge, no Redis client unless it is shared.

/**
 * V8's settings for the commands that work, made once the command's code is loaded: any change of
 * V8's flags makes it refuse node's code cache for node's own modules, and each one loaded after
 * that is compiled from its source, at twice the CPU (http, worker_threads, tls and five more:
 * 15 ms cached, 35 ms after a flag is set).
 */
function tuneV8(): void {
  // Before a pipeline file is loaded: its own regexps are bounded too.
  boundBacktracking();
  // undici parses HTTP in WebAssembly, which V8 recompiles with TurboFan once it is hot: after the
  // first responses, and a process cannot exit before such a compile ends. The compile is 0.15-0.2 s
  // of CPU, a third of the demo's, and 40 MB; what it saves is a few microseconds a response
  // (20,000 responses of 20 KB cost undici's client as much CPU either way). The filter names no
  // function of that module, so none is tiered up: the parser stays on Liftoff's code.
  setFlagsFromString('--wasm-tier-up-filter=2147483647');
  // On a machine with memory to spare V8 lets the old generation grow to up to 4× what survived the last
  // full collection before it collects again; a crawl's live heap is small (13 MB at 20k pages) and its
  // garbage many short-lived buffers, so that headroom was most of the peak RSS. 1.3× is V8's own
  // factor under memory pressure; it takes effect at the next full collection.
  setFlagsFromString('--heap-growing-percent=30');
}

/** Loads a command's code, then sets V8's flags ({@link tuneV8}). */
async function load<T>(code: Promise<T>): Promise<T> {
  const loaded = await code;
  tuneV8();
  return loaded;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  switch (args.command) {
    case 'help': {
      const { usage } = await import('../config/usage.js');
      const { commandHelp } = await import('../config/command-help.js');
      process.stdout.write(args.helpTopic === undefined ? usage() : commandHelp(args.helpTopic));
      return EXIT.ok;
    }
    case 'version': {
      const { versionLine } = await import('../config/version.js');
      process.stdout.write(versionLine());
      return EXIT.ok;
    }
    case 'demo': {
      const { runDemo } = await load(import('./run-demo.js'));
      return runDemo(args.overrides, { report: args.report });
    }
    case 'crawl': {
      const [{ loadConfig }, { hasCrawlState }, { openLog }, { flushLogger }, { crawlAndReport }] = await load(
        Promise.all([import('../config/load-config.js'), import('../state/crawl-state.js'), import('./open-log.js'), import('../log/create-logger.js'), import('./crawl-and-report.js')]),
      );
      const { config, warnings } = await loadConfig(args.confPath, args.overrides, { canResume: hasCrawlState });
      const log = await openLog(config);
      for (const warning of warnings) log.warn(warning);
      let exitCode: number;
      if (config.frontier !== undefined) exitCode = await (await import('./run-shared.js')).runShared(config, log, undefined, args.watch);
      else if (args.watch) {
        const { crawlHere, watch } = await import('./watch.js');
        exitCode = await watch(config, log, crawlHere(config, log, { report: args.report }));
      } else exitCode = await crawlAndReport(config, log, { report: args.report });
      await flushLogger(log);
      return exitCode;
    }
    case 'pagerank':
      return (await load(import('./run-pagerank.js'))).runPagerank(args.indexPath!, args.pagerank, process.stdout);
    case 'report':
      return (await load(import('./run-report.js'))).runReport(args.reportPath!);
    case 'merge':
      return (await load(import('./run-merge.js'))).runMerge(args.mergePaths!);
    case 'run':
      return (await load(import('./run-pipeline.js'))).runPipeline(args.pipelinePath!, args.confPath, args.overrides);
  }
}

// A worker's own command line has its passwords as `***`: its supervisor hands it the real one.
const workerArgv = process.env[WORKER_ARGV_ENV];
delete process.env[WORKER_ARGV_ENV];
main(workerArgv === undefined ? process.argv.slice(2) : (JSON.parse(workerArgv) as string[])).then(
  (code) => {
    // Every sink is flushed and synced by now: do not wait for idle keep-alive sockets and timers.
    process.exit(code);
  },
  (err: unknown) => {
    const exit = (err as { exitCode?: number }).exitCode;
    if (exit !== undefined) {
      process.stderr.write(`tarantula: ${passwordsHidden((err as Error).message)}\n`);
      process.exitCode = exit;
    } else if (err instanceof ConfigError) {
      process.stderr.write(`tarantula: ${passwordsHidden(err.message)}\n`);
      process.exitCode = EXIT.badConfig;
    } else {
      process.stderr.write(`tarantula: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = EXIT.cannotRun;
    }
  },
);
