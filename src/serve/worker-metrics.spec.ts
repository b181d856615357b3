import { describe, expect, it } from 'vitest';
import { relayWorkerMetrics } from './worker-metrics.js';

const worker = (pages: number, state: string, failures: string): string =>
  [
    '# HELP tarantula_pages_fetched_total Documents fetched by this run.',
    '# TYPE tarantula_pages_fetched_total counter',
    `tarantula_pages_fetched_total ${pages}`,
    '# HELP tarantula_failures_total Requests that failed, by code.',
    '# TYPE tarantula_failures_total counter',
    failures,
    '# HELP tarantula_crawl_state The crawl\'s state.',
    '# TYPE tarantula_crawl_state gauge',
    `tarantula_crawl_state{state="running"} ${state === 'running' ? 1 : 0}`,
    '# HELP process_resident_memory_bytes Resident memory size in bytes.',
    '# TYPE process_resident_memory_bytes gauge',
    'process_resident_memory_bytes 1000',
    '',
  ].join('\n');

describe('relayWorkerMetrics', () => {
  it('labels every worker\'s series with its slot and adds the crawl\'s totals of its own figures only', () => {
    const text = relayWorkerMetrics(new Map([
      [1, worker(3, 'paused', 'tarantula_failures_total{code="http-404"} 1')],
      [0, worker(2, 'running', 'tarantula_failures_total{code="http-404"} 2\ntarantula_failures_total{code="ECONNREFUSED"} 1')],
    ]));
    expect(text).toBe([
      '# HELP tarantula_pages_fetched_total Documents fetched by this run.',
      '# TYPE tarantula_pages_fetched_total counter',
      'tarantula_pages_fetched_total{worker="0"} 2',
      'tarantula_pages_fetched_total{worker="1"} 3',
      'tarantula_pages_fetched_total 5',
      '# HELP tarantula_failures_total Requests that failed, by code.',
      '# TYPE tarantula_failures_total counter',
      'tarantula_failures_total{worker="0",code="http-404"} 2',
      'tarantula_failures_total{worker="0",code="ECONNREFUSED"} 1',
      'tarantula_failures_total{worker="1",code="http-404"} 1',
      'tarantula_failures_total{code="http-404"} 3',
      'tarantula_failures_total{code="ECONNREFUSED"} 1',
      '# HELP tarantula_crawl_state The crawl\'s state.',
      '# TYPE tarantula_crawl_state gauge',
      'tarantula_crawl_state{worker="0",state="running"} 1',
      'tarantula_crawl_state{worker="1",state="running"} 0',
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      'process_resident_memory_bytes{worker="0"} 1000',
      'process_resident_memory_bytes{worker="1"} 1000',
      '',
    ].join('\n'));
  });

  it('gives nothing when no worker answers', () => {
    expect(relayWorkerMetrics(new Map())).toBe('');
  });
});
