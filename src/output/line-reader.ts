import { StringDecoder } from 'node:string_decoder';

/**
 * The UTF-8 lines of a stream of chunks, without their `\n` or `\r\n`, one at a time: memory holds
 * one chunk and one line, never the whole input. A leading byte-order mark is dropped.
 *
 * @example
 * const lines = new LineReader(createReadStream('index.txt'));
 * for await (const line of lines) console.log(lines.lineNumber, line); //=> 1 'e3b0…\thttp://h/\t…'
 */
export class LineReader implements AsyncIterable<string> {
  /** Number of the line last yielded, from 1. */
  lineNumber = 0;
  /** True once the last line has been yielded without a `\n` after it (a torn write, or a hand-made file). */
  unterminated = false;

  constructor(private readonly chunks: AsyncIterable<Buffer | string>) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<string, void, undefined> {
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let first = true;
    for await (const chunk of this.chunks) {
      let text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
      if (first && text !== '') {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        this.lineNumber++;
        yield text.slice(start, end);
        start = nl + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder.end();
    if (rest !== '') {
      this.unterminated = true;
      this.lineNumber++;
      yield rest;
    }
  }
}
