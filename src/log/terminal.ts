import { ansiPaint, humanLine, noPaint, type Paint } from './human-line.js';

/** Back to the line's start, and erase it. */
const CLEAR = '\r\x1b[K';

/**
 * stderr when it is a terminal: a pino destination that turns each JSON record into a human line
 * ({@link humanLine}; every field of a record is in the JSON log, so a line needs no more), and one status line
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
  private readonly paint: Paint;

  constructor(private readonly tty: NodeJS.WriteStream) {
    this.paint = tty.hasColors?.() ? ansiPaint : noPaint;
  }

  /** pino's destination interface: one JSON record. */
  write(record: string): void {
    this.print(humanLine(JSON.parse(record) as Record<string, unknown>, this.paint) + '\n');
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
