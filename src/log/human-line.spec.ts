import { describe, expect, it } from 'vitest';
import { ansiPaint, humanLine, noPaint } from './human-line.js';

const time = '2026-12-01T09:15:02.000Z';
const local = new Date(time).toTimeString().slice(0, 8);

describe('humanLine', () => {
  it.each([
    [{ level: 25, time, url: 'http://a.test/', status: 200, type: 'html', ms: 12, msg: 'fetched' }, `${local} 200 http://a.test/ 12 ms`],
    [{ level: 25, time, url: 'http://a.test/x', code: 'http-404', status: 404, attempts: 1, msg: 'HTTP 404 Not Found' }, `${local} 404 http://a.test/x HTTP 404 Not Found`],
    [{ level: 25, time, url: 'http://a.test/', code: 'ECONNRESET', attempt: 1, msg: 'will retry: socket hang up' }, `${local} ECONNRESET http://a.test/ will retry: socket hang up`],
    [{ level: 30, time, seeds: ['http://a.test/'], repository: 'out', mode: 'crawl', msg: 'crawl started' }, `${local} INFO crawl started out`],
    [{ level: 30, time, reason: 'SIGINT', msg: 'stopping' }, `${local} INFO stopping (SIGINT)`],
    [{ level: 40, time, url: 'http://b.test/', code: 'ECONNREFUSED', msg: 'connection refused' }, `${local} WARN connection refused http://b.test/ (ECONNREFUSED)`],
    [{ level: 20, time, url: 'http://a.test/', status: 301, location: 'http://a.test/b', msg: 'redirect' }, `${local} DEBUG redirect 301 http://a.test/ → http://a.test/b`],
    [{ level: 50, time, err: { type: 'Error', message: 'disk full' }, msg: 'cannot write the index' }, `${local} ERROR cannot write the index disk full`],
  ])('%j', (log, line) => {
    expect(humanLine(log, noPaint)).toBe(line);
  });

  it('colours the status by class, the level, and dims the time', () => {
    expect(humanLine({ level: 25, time, url: 'http://a.test/', status: 200, msg: 'fetched' }, ansiPaint)).toBe(`\x1b[2m${local}\x1b[22m \x1b[32m200\x1b[39m http://a.test/`);
    expect(humanLine({ level: 25, time, url: 'http://a.test/', status: 503, msg: 'fetched' }, ansiPaint)).toContain('\x1b[31m503\x1b[39m');
    expect(humanLine({ level: 40, time, msg: 'careful' }, ansiPaint)).toContain('\x1b[33mWARN\x1b[39m');
  });
});
