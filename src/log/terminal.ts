import { prettyFactory } from 'pino-pretty';
import { ansiPaint, humanLine, noPaint } from './human-line.js';

/** Back to the line's start, and erase it. */
const CLEAR = '\r\x1b[K';

/**
 * stderr when it is a terminal: a pino destination that turns each JSON record into a human line
 * (pino-pretty's prettifier, in-process, with {@link humanLine} as its format), and one status line
 * kept at the bottom. A log line clears the status line, is written, and the status line is drawn
 * again, all in one write, so the two never tear. Colours follow the terminal (`NO_COLOR`,
 * `FORCE_COLOR` and `TERM=dumb` as Node's `hasColors` reads them).
 *
 * @example
 * const terminal = new Terminal(process.stderr);
 * pino(terminal).info('crawl started'); terminal.status('12 pages  3.1/s');
 * //=> 10:15:02 INFO crawl started
 * //=> 12 pages  3.1/s
 */
export class Terminal {
  private text = '';
  private readonly pretty: (record: string) => string;

  constructor(private readonly tty: NodeJS.WriteStream) {
    const paint = tty.hasColors?.() ? ansiPaint : noPaint;
    this.pretty = prettyFactory({
      colorize: false,
      hideObject: true,
      ignore: 'time,level',
      messageFormat: (log) => humanLine(log, paint),
    });
  }

  /** pino's destination interface: one JSON record. */
  write(record: string): void {
    this.print(this.pretty(record));
  }

  /** Writes whole lines above the status line. */
  print(lines: string): void {
    this.tty.write(CLEAR + lines + this.fitted());
  }

  /** Shows (or replaces) the status line. */
  status(text: string): void {
    this.text = text;
    this.tty.write(CLEAR + this.fitted());
  }

  /** Removes the status line: nothing is drawn below the next lines. */
  clearStatus(): void {
    if (this.text === '') return;
    this.text = '';
    this.tty.write(CLEAR);
  }

  /** A status line wider than the terminal would wrap, and CLEAR would then erase only its last row. */
  private fitted(): string {
    const columns = this.tty.columns || 80;
    return this.text.length < columns ? this.text : this.text.slice(0, columns - 1);
  }
}
