import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { createLogger, flushLogger } from './create-logger.js';

describe('createLogger', () => {
  it('writes the password of a URL in a field, or in a list of them, as ***, and leaves the rest alone', async () => {
    const tmp = await tempDir();
    const file = `${tmp.dir}/crawl.log`;
    const log = createLogger({ logFile: file, logLevel: 1 });
    const fields = { http: 'http://me:proxy-pw@proxy.test:3128', seeds: ['http://a.test/', 'http://me:seed-pw@b.test/'], url: 'http://c.test/x@y', n: 1 };
    log.info(fields, 'starting');
    log.page({ url: 'http://me:page-pw@b.test/1' }, 'fetched');
    await flushLogger(log);
    // The file is opened asynchronously: its lines come once it is.
    const written = async (): Promise<string> => readFile(file, 'utf8').catch(() => '');
    for (let i = 0; (await written()).trim().split('\n').length < 2 && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
    const lines = (await written()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ http: 'http://me:***@proxy.test:3128', seeds: ['http://a.test/', 'http://me:***@b.test/'], url: 'http://c.test/x@y', n: 1 });
    expect(lines[1]).toMatchObject({ url: 'http://me:***@b.test/1' });
    // The caller's object is not changed.
    expect(fields.http).toBe('http://me:proxy-pw@proxy.test:3128');
    await tmp.remove();
  });
});
