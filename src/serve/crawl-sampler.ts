import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Interval } from '../report/svg-charts.js';

const EVERY_MS = 1000;
/** The pages/s of the metrics and the status is taken over the last 10 samples. */
const RATE_SAMPLES = 10;
/** Samples kept for the pages-over-time chart: beyond it every other one is let go, so the chart spans the whole crawl at half the detail. */
const KEPT = 240;

/** What the sampler read last: the crawl's rate and the event loop's delays. */
export interface Sample {
  readonly pagesPerSecond: number;
  /** The event loop's delay over the last second: the 99th percentile and the maximum, in seconds. */
  readonly lagP99Seconds: number;
  readonly lagMaxSeconds: number;
}

/**
 * Reads the crawl's document count once a second, off the hot path: the pages per second of the
 * last 10 s, the pages-over-time chart of the dashboard (a bounded history), and the event loop's
 * delay (perf_hooks' histogram, reset each second). `stop` ends it.
 *
 * @example
 * const sampler = crawlSampler(() => ctx.stats.documents); sampler.last.pagesPerSecond //=> 183.2
 */
export function crawlSampler(documents: () => number): { readonly last: Sample; intervals(): { rate: Interval[]; spanSeconds: number }; stop(): void } {
  const started = Date.now();
  const history: [at: number, documents: number][] = [[started, documents()]];
  const recent: [number, number][] = [[started, documents()]];
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  let last: Sample = { pagesPerSecond: 0, lagP99Seconds: 0, lagMaxSeconds: 0 };
  const timer = setInterval(() => {
    const now: [number, number] = [Date.now(), documents()];
    history.push(now);
    if (history.length > KEPT) for (let i = history.length - 2; i > 0; i -= 2) history.splice(i, 1);
    recent.push(now);
    if (recent.length > RATE_SAMPLES + 1) recent.shift();
    const [at, count] = recent[0]!;
    last = {
      pagesPerSecond: Math.round(((now[1] - count) * 10_000) / Math.max(1, now[0] - at)) / 10,
      lagP99Seconds: lag.percentile(99) / 1e9,
      lagMaxSeconds: lag.max / 1e9,
    };
    lag.reset();
  }, EVERY_MS);
  timer.unref();
  return {
    get last() {
      return last;
    },
    intervals() {
      const rate = history.slice(1).map(([at, n], i): Interval => {
        const [from, before] = history[i]!;
        return [(from - started) / 1000, (at - started) / 1000, ((n - before) * 1000) / Math.max(1, at - from)];
      });
      return { rate, spanSeconds: (history[history.length - 1]![0] - started) / 1000 };
    },
    stop() {
      clearInterval(timer);
      lag.disable();
    },
  };
}
