import type { CrawlContext } from './crawl-context.js';

const TTY_EVERY_MS = 500;
const LOG_EVERY_MS = 10_000;

const clock = (ms: number): string => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * Reports progress while the crawl runs, never on stdout: on a terminal, one status line on stderr
 * redrawn in place (pages, pages/s, queued, hosts, errors, elapsed); elsewhere an info log line every
 * 10 s. Returns the function that stops it (and clears the line).
 *
 * @example
 * const stop = startProgress(ctx, process.stderr); ...; stop();
 * //=> 1,204 pages  183.2/s  queued 5,310  hosts 41  errors 3  0:00:06
 */
export function startProgress(ctx: CrawlContext, stderr: NodeJS.WriteStream): () => void {
  const tty = stderr.isTTY === true;
  const started = Date.now();
  let last = { at: started, documents: 0 };
  const sample = () => {
    const now = Date.now();
    const { documents, failures } = ctx.stats;
    const rate = ((documents - last.documents) * 1000) / Math.max(1, now - last.at);
    last = { at: now, documents };
    return { documents, rate: Math.round(rate * 10) / 10, queued: ctx.frontier.size, hosts: ctx.frontier.hosts, errors: failures, elapsed: clock(now - started) };
  };
  const timer = setInterval(() => {
    const p = sample();
    if (tty)
      stderr.write(
        `\r\x1b[K${p.documents.toLocaleString('en')} pages  ${p.rate}/s  queued ${p.queued.toLocaleString('en')}  hosts ${p.hosts}  errors ${p.errors}  ${p.elapsed}`,
      );
    else ctx.log.info(p, 'progress');
  }, tty ? TTY_EVERY_MS : LOG_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (tty) stderr.write('\r\x1b[K');
  };
}
