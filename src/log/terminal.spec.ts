import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Terminal } from './terminal.js';

function tty(colours: boolean, columns = 80) {
  const written: string[] = [];
  const stream = { isTTY: true, columns, hasColors: () => colours, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

describe('Terminal', () => {
  it('writes each pino record as a human line, clearing the status line first and drawing it again after', () => {
    const { stream, written } = tty(false);
    const terminal = new Terminal(stream);
    const log = pino({ customLevels: { page: 25 }, level: 'page', base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, terminal);
    terminal.status('3 pages  1.0/s');
    log.page({ url: 'http://a.test/', status: 200, ms: 12.4, bytes: 99 }, 'fetched');
    terminal.clearStatus();
    expect(written).toEqual([
      '\r\x1b[K3 pages  1.0/s',
      expect.stringMatching(/^\r\x1b\[K\d\d:\d\d:\d\d 200 http:\/\/a\.test\/ 12 ms\n3 pages {2}1\.0\/s$/),
      '\r\x1b[K',
    ]);
  });

  it('cuts the status line to the terminal width, so that it never wraps', () => {
    const { stream, written } = tty(false, 10);
    new Terminal(stream).status('1,204 pages  183.2/s');
    expect(written).toEqual(['\r\x1b[K1,204 pag']);
  });

  it('keeps a server’s control characters off the terminal', () => {
    const { stream, written } = tty(true);
    const log = pino({ base: undefined }, new Terminal(stream));
    log.warn({ url: 'http://a.test/\x1b]0;owned\x07' }, 'odd \x1b[2J');
    expect(written[0]).not.toMatch(/\x1b\]|\x07|\x1b\[2J/);
    expect(written[0]).toContain('http://a.test/?]0;owned?');
  });

  it('keeps bidirectional overrides off the terminal too', () => {
    const { stream, written } = tty(false);
    pino({ base: undefined }, new Terminal(stream)).warn({ reason: 'exe.\u202etxt' }, 'odd');
    expect(written[0]).toContain('(exe.?txt)');
  });
});
