import { terminalOf } from '../log/create-logger.js';
import { Terminal } from '../log/terminal.js';
import { formatCount } from '../log/format-count.js';
import type { CrawlContext } from '../engine/crawl-context.js';

const TTY_EVERY_MS = 500;
const LOG_EVERY_MS = 10_000;
/** The terminal's pages/s is taken over this many samples (5 s): steady enough to read, recent enough to follow. */
const RATE_SAMPLES = 10;

const clock = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * Reports progress while the crawl runs, never on stdout. On a terminal, one status line at the
 * bottom of stderr, redrawn every 0.5 s (log lines scroll above it): pages, pages/s over the last
 * 5 s, queued, in flight, failures, elapsed, and the time left when `max-page-number` or
 * `time-limit` bounds the crawl. Elsewhere, an info log line every 10 s. Returns the function that
 * stops it (and clears the line). Without `stderr`, the status line goes to the log's terminal if it has one.
 *
 * @example
 * const stop = startProgress(ctx, process.stderr); ...; stop();
 * //=> 1,204 pages  183.2/s  queued 5,310  in flight 16  failures 3  0:00:06  ETA 0:01:10
 */
export function startProgress(ctx: CrawlContext, stderr?: NodeJS.WriteStream): () => void {
  const terminal = terminalOf(ctx.log) ?? (stderr?.isTTY === true ? new Terminal(stderr) : undefined);
  const started = Date.now();
  if (terminal === undefined) {
    let last = { at: started, documents: 0 };
    const timer = setInterval(() => {
      const now = Date.now();
      const { documents, failures } = ctx.stats;
      const rate = ((documents - last.documents) * 1000) / Math.max(1, now - last.at);
      last = { at: now, documents };
      ctx.log.info(
        { documents, rate: Math.round(rate * 10) / 10, queued: ctx.frontier.size, hosts: ctx.frontier.hosts, errors: failures, elapsed: clock(now - started) },
        'progress',
      );
    }, LOG_EVERY_MS);
    timer.unref();
    return () => clearInterval(timer);
  }
  const samples = [{ at: started, documents: 0 }];
  const timer = setInterval(() => {
    const now = Date.now();
    const { documents, failures } = ctx.stats;
    samples.push({ at: now, documents });
    if (samples.length > RATE_SAMPLES + 1) samples.shift();
    const first = samples[0]!;
    const rate = ((documents - first.documents) * 1000) / Math.max(1, now - first.at);
    const eta = timeLeft(ctx, documents, now - started);
    terminal.status(
      `${formatCount(documents)} pages  ${rate.toFixed(1)}/s  queued ${formatCount(ctx.frontier.size)}  in flight ${ctx.frontier.inFlight}  ` +
        `failures ${formatCount(failures)}  ${clock(now - started)}${eta === undefined ? '' : `  ETA ${clock(eta)}`}`,
    );
  }, TTY_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    terminal.clearStatus();
  };
}

/** Milliseconds until a page or time limit ends the crawl, at this run's average rate; undefined without a limit. */
function timeLeft(ctx: CrawlContext, documents: number, elapsedMs: number): number | undefined {
  const { maxPageNumber, timeLimitMs } = ctx.config;
  const byTime = timeLimitMs > 0 ? Math.max(0, timeLimitMs - elapsedMs) : Infinity;
  const left = maxPageNumber - ctx.state.documents - documents;
  const byPages = maxPageNumber > 0 && documents > 0 ? (Math.max(0, left) * elapsedMs) / documents : Infinity;
  const eta = Math.min(byTime, byPages);
  return Number.isFinite(eta) ? Math.ceil(eta / 1000) * 1000 : undefined;
}
