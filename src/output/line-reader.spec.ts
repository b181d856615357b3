import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader.js';

async function collect(chunks: (string | Buffer)[]): Promise<{ lines: string[]; reader: LineReader }> {
  const reader = new LineReader((async function* () { yield* chunks; })());
  const lines: string[] = [];
  for await (const line of reader) lines.push(line);
  return { lines, reader };
}

describe('LineReader', () => {
  it('splits on LF and CRLF across chunk boundaries, keeping empty lines', async () => {
    const { lines, reader } = await collect(['a\r', '\nb', 'c\n\nd\n']);
    expect(lines).toEqual(['a', 'bc', '', 'd']);
    expect(reader.unterminated).toBe(false);
    expect(reader.lineNumber).toBe(4);
  });

  it('decodes UTF-8 characters split between chunks and drops a leading BOM', async () => {
    const bytes = Buffer.from('\ufeff\u0395\u03bb\u03bb\u03ac\u03b4\u03b1\n\u4e2d\u6587\n');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect((await collect(chunks)).lines).toEqual(['\u0395\u03bb\u03bb\u03ac\u03b4\u03b1', '\u4e2d\u6587']);
  });

  it('yields a last line without newline and says so', async () => {
    const { lines, reader } = await collect(['x\ny']);
    expect(lines).toEqual(['x', 'y']);
    expect(reader.unterminated).toBe(true);
  });
});
