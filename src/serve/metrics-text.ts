import { DURATION_BOUNDS_MS } from '../sinks/crawl-stats.js';
import type { LiveCrawl, RunState } from '../app/live-crawl.js';
import type { Sample } from './crawl-sampler.js';

/** Content-Type of the Prometheus text exposition format. */
export const METRICS_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type Labels = Readonly<Record<string, string>>;
type Line = readonly [labels: Labels, value: number] | readonly [labels: Labels, value: number, suffix: string];

const escapeLabel = (value: string): string => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Labels): string => {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
};
const number = (n: number): string => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

/** One metric family: its HELP and TYPE lines, then its samples. */
function family(name: string, type: 'counter' | 'gauge' | 'histogram', help: string, samples: readonly Line[]): string {
  const lines = samples.map(([labels, value, suffix]) => `${name}${suffix ?? ''}${labelText(labels)} ${number(value)}`);
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}`;
}

const one = (value: number): Line[] => [[{}, value]];
const byLabel = (label: string, counts: ReadonlyMap<string, number>): Line[] =>
  [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([key, n]) => [{ [label]: key }, n]);
const STATES: readonly RunState[] = ['running', 'paused', 'stopping'];

/**
 * The crawl's metrics in the Prometheus text format (version 0.0.4), read at scrape time from what
 * the crawl counts anyway (its stats, its frontier) and the sampler: nothing is counted twice on
 * the hot path. Labels take bounded values only: failure codes, drop reasons, states (no URL, no host).
 *
 * @example
 * metricsText(live, sampler.last)
 * //=> '# HELP tarantula_pages_fetched_total Documents fetched by this run.\n# TYPE tarantula_pages_fetched_total counter\ntarantula_pages_fetched_total 12\n…'
 */
export function metricsText(live: LiveCrawl, sample: Sample): string {
  const { stats, frontier } = live.ctx;
  const { failures, dropped } = stats.failuresByCodeAndDrops();
  const durations = stats.durations();
  let cumulative = 0;
  const buckets = durations.counts.map((n, i): Line => {
    cumulative += n;
    return [{ le: i < DURATION_BOUNDS_MS.length ? String(DURATION_BOUNDS_MS[i]! / 1000) : '+Inf' }, cumulative, '_bucket'];
  });
  const memory = process.memoryUsage();
  const cpu = process.cpuUsage();
  const state = live.state;
  return [
    family('tarantula_pages_fetched_total', 'counter', 'Documents fetched by this run.', one(stats.documents)),
    family('tarantula_fetched_bytes_total', 'counter', 'Bytes of the documents fetched by this run.', one(stats.bytes)),
    family('tarantula_failures_total', 'counter', 'Requests that failed, by code (http-404, ECONNREFUSED, ...).', byLabel('code', failures)),
    family('tarantula_dropped_urls_total', 'counter', 'URLs not fetched, by reason (duplicate, out-of-scope, robots, ...).', byLabel('reason', dropped)),
    family('tarantula_redirects_total', 'counter', 'Redirects followed.', one(stats.redirects)),
    family('tarantula_retries_total', 'counter', 'Requests tried again after a failure.', one(stats.retries)),
    family('tarantula_fetch_duration_seconds', 'histogram', 'Time to fetch a document, request to last byte.', [
      ...buckets,
      [{}, durations.sumMs / 1000, '_sum'],
      [{}, cumulative, '_count'],
    ]),
    family('tarantula_frontier_pending', 'gauge', 'Requests waiting in the frontier.', one(frontier.size)),
    family('tarantula_requests_in_flight', 'gauge', 'Requests being fetched now.', one(frontier.inFlight)),
    family('tarantula_hosts_active', 'gauge', 'Hosts with requests pending or in flight, or resting after one.', one(frontier.hosts)),
    family('tarantula_pages_per_second', 'gauge', 'Documents fetched per second over the last 10 seconds.', one(sample.pagesPerSecond)),
    family('tarantula_crawl_state', 'gauge', 'The crawl\'s state: 1 for the one it is in.', STATES.map((s) => [{ state: s }, s === state ? 1 : 0])),
    family('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes.', one(memory.rss)),
    family('process_cpu_seconds_total', 'counter', 'User and system CPU time spent in seconds.', one((cpu.user + cpu.system) / 1e6)),
    family('process_start_time_seconds', 'gauge', 'Start time of the process since the Unix epoch in seconds.', one(Math.round(performance.timeOrigin / 1000))),
    family('nodejs_eventloop_lag_p99_seconds', 'gauge', 'The event loop\'s delay over the last second: 99th percentile.', one(sample.lagP99Seconds)),
    family('nodejs_eventloop_lag_max_seconds', 'gauge', 'The event loop\'s delay over the last second: maximum.', one(sample.lagMaxSeconds)),
  ].join('');
}
