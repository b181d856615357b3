import { describe, expect, it } from 'vitest';
import { seedLine } from './seed-line.js';

describe('seedLine', () => {
  it.each<[string, ReturnType<typeof seedLine>]>([
    ['http://a.test/', { url: 'http://a.test/' }],
    ['  https://a.test/x?y=1 \r', { url: 'https://a.test/x?y=1' }],
    ['', undefined],
    ['   ', undefined],
    ['# a comment', undefined],
    ['   # an indented comment', undefined],
    ['0123456789abcdef0123456789abcdef\thttp://a.test/p\thttp://a.test/p\tP\tutf-8\thtml\t-\t-', { url: 'http://a.test/p' }],
    ['\t@http://a.test/q anchor text', undefined],
    ['@http://a.test/q anchor text', undefined],
    ['http://a.test/p\thttp://b.test/', { url: 'http://b.test/' }],
    ['{"md5":"x","url":"http://a.test/j","links":[]}', { url: 'http://a.test/j' }],
    ['{"url": 42}', { refused: 'a JSON record without a "url" string' }],
    ['{"url":', { refused: expect.stringMatching(/^not a JSON record \(/) as unknown as string }],
    ['/relative/path', { refused: '"/relative/path" is not an absolute http(s) URL' }],
    ['ftp://a.test/', { refused: '"ftp://a.test/" is not an absolute http(s) URL' }],
    ['md5,url,originalUrl,title', { refused: '"md5,url,originalUrl,title" is not an absolute http(s) URL' }],
  ])('%j gives %j', (line, expected) => {
    expect(seedLine(line)).toEqual(expected);
  });

  it('shows at most 200 characters of a refused line', () => {
    const refused = seedLine('x'.repeat(10_000));
    expect(refused).toEqual({ refused: `"${'x'.repeat(200)}…" is not an absolute http(s) URL` });
  });
});
