#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { ConfigError } from '../config/config-error.js';
import { loadConfig } from '../config/load-config.js';
import { hasCrawlState } from '../state/crawl-state.js';
import { parseArgs } from '../config/parse-args.js';
import { usage } from '../config/usage.js';
import { commandHelp } from '../config/command-help.js';
import { flushLogger } from '../log/create-logger.js';
import { openLog } from './open-log.js';
import { VERSION } from '../config/version.js';
import { runDemo } from './run-demo.js';
import { crawlAndReport } from './crawl-and-report.js';
import { runPagerank } from './run-pagerank.js';
import { runPipeline } from './run-pipeline.js';
import { runMerge } from './run-merge.js';
import { runReport } from './run-report.js';
import { crawlHere, watch } from './watch.js';
import { EXIT } from '../app/exit-status.js';
import { runShared } from './run-shared.js';
import { WORKER_ARGV_ENV } from '../distributed/supervise-workers.js';
import { passwordsHidden } from '../config/without-password.js';

// undici parses HTTP in WebAssembly, which V8 recompiles with TurboFan once it is hot: by default
// after the first two responses, and a process cannot exit before such a compile ends (150 ms, half
// the run of a one-page crawl). A budget 100× the default moves that to the first few hundred pages.
setFlagsFromString('--wasm-tiering-budget=180000000');
// On a machine with memory to spare V8 lets the old generation grow to up to 4× what survived the last
// full collection before it collects again; a crawl's live heap is small (13 MB at 20k pages) and its
// garbage many short-lived buffers, so that headroom was most of the peak RSS. 1.3× is V8's own
// factor under memory pressure; it takes effect at the next full collection.
setFlagsFromString('--heap-growing-percent=30');

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  switch (args.command) {
    case 'help':
      process.stdout.write(args.helpTopic === undefined ? usage() : commandHelp(args.helpTopic));
      return EXIT.ok;
    case 'version':
      process.stdout.write(`tarantula ${VERSION}\n`);
      return EXIT.ok;
    case 'demo':
      return runDemo(args.overrides, { report: args.report });
    case 'crawl': {
      const { config, warnings } = await loadConfig(args.confPath, args.overrides, { canResume: hasCrawlState });
      const log = await openLog(config);
      for (const warning of warnings) log.warn(warning);
      const exitCode =
        config.frontier !== undefined
          ? await runShared(config, log, undefined, args.watch)
          : args.watch
            ? await watch(config, log, crawlHere(config, log, { report: args.report }))
            : await crawlAndReport(config, log, { report: args.report });
      await flushLogger(log);
      return exitCode;
    }
    case 'pagerank':
      return runPagerank(args.indexPath!, args.pagerank, process.stdout);
    case 'report':
      return runReport(args.reportPath!);
    case 'merge':
      return runMerge(args.mergePaths!);
    case 'run':
      return runPipeline(args.pipelinePath!, args.confPath, args.overrides);
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
