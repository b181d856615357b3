import { createHash } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MirrorStore } from './mirror-store.js';

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return { ...real, mkdir: vi.fn(real.mkdir) };
});

const tag = (href: string): string => '~' + createHash('md5').update(href).digest('hex').slice(0, 8);
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

let base: string;
let repo: string;
let store: MirrorStore;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'mirror-store-'));
  repo = join(base, 'repo');
  store = new MirrorStore(repo);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Every file under `dir`, relative, `/`-separated. */
async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1).split('\\').join('/')).sort();
}

describe('MirrorStore', () => {
  it('stores a document at HOST/PATH and returns that path', async () => {
    expect(await store.save(new URL('http://www.ics.forth.gr/'), true, bytes('<p>home'))).toBe('www.ics.forth.gr/index.html');
    expect(await store.save(new URL('http://h:8080/a/news'), true, bytes('news'))).toBe('h+8080/a/news.html');
    expect(await readFile(join(repo, 'www.ics.forth.gr/index.html'), 'utf8')).toBe('<p>home');
    expect(await files(base)).toEqual(['repo/h+8080/a/news.html', 'repo/www.ics.forth.gr/index.html']);
  });

  it('overwrites its own file when a recrawl saves the same URL again where the last crawl stored it', async () => {
    const url = new URL('http://h/page');
    const first = await store.save(url, true, bytes('old'));
    expect(await new MirrorStore(repo).save(url, true, bytes('new'), first)).toBe(first);
    expect((await store.read(first)).toString()).toBe('new');
    expect(await files(repo)).toEqual(['h/page.html']);
  });

  it.each([
    ['http://h/', 'http://h/index.html', 'h/index.html'],
    ['http://h/d/', 'http://h/d/index.html', 'h/d/index.html'],
    ['http://h/news', 'http://h/news.html', 'h/news.html'],
    ['http://h/q?x=1', 'http://h/q%3Fx=1', 'h/q%3Fx=1.html'],
    ['http://h/a:b', 'http://h/a%3Ab', 'h/a%3Ab.html'],
  ])('gives two URLs of one name (%s, %s) a copy each: the later one tagged', async (first, later, name) => {
    expect(await store.save(new URL(first), true, bytes(first))).toBe(name);
    const tagged = name.replace(/\.html$/, `${tag(new URL(later).href)}.html`);
    expect(await store.save(new URL(later), true, bytes(later))).toBe(tagged);
    expect((await store.read(name)).toString()).toBe(first);
    expect((await store.read(tagged)).toString()).toBe(later);
    // Each keeps its own place when the other is saved again, in this run or the next.
    expect(await new MirrorStore(repo).save(new URL(later), true, bytes(later + ' 2'), tagged)).toBe(tagged);
    expect(await new MirrorStore(repo).save(new URL(first), true, bytes(first + ' 2'), name)).toBe(name);
    expect((await store.read(name)).toString()).toBe(first + ' 2');
  });

  it('never replaces a file it did not write for that URL (another URL, or a file of the user)', async () => {
    await fsp.mkdir(join(repo, 'h'), { recursive: true });
    await writeFile(join(repo, 'h/notes.html'), 'mine');
    const path = await store.save(new URL('http://h/notes.html'), true, bytes('fetched'));
    expect(path).toBe(`h/notes${tag('http://h/notes.html')}.html`);
    expect(await readFile(join(repo, 'h/notes.html'), 'utf8')).toBe('mine');
  });

  it('gives racing claims of one name by two stores (two worker processes) a copy each', async () => {
    const urls = ['http://h/', 'http://h/index.html'];
    const other = new MirrorStore(repo, { sync: true });
    const paths = await Promise.all([store.save(new URL(urls[0]!), true, bytes(urls[0]!)), other.save(new URL(urls[1]!), true, bytes(urls[1]!))]);
    expect(new Set(paths).size).toBe(2);
    for (const [i, path] of paths.entries()) expect((await store.read(path)).toString()).toBe(urls[i]);
  });

  it("keeps host folders off the names of the crawl's own files", async () => {
    const reserved = ['index.txt', 'stats.json', 'report.html', 'logs'];
    const own = new MirrorStore(repo, { reserved });
    expect(await own.save(new URL('http://.tarantula/journal.jsonl'), false, bytes('j'))).toBe('%2Etarantula/journal.jsonl');
    expect(await own.save(new URL('http://stats.json/'), true, bytes('s'))).toBe('%73tats.json/index.html');
    expect(await own.save(new URL('http://logs/crawl.log'), false, bytes('l'))).toBe('%6Cogs/crawl.log');
    expect(await own.save(new URL('http://index.txt.new/'), true, bytes('n'))).toBe('%69ndex.txt.new/index.html');
    expect(await own.save(new URL('http://logs.example/'), true, bytes('e'))).toBe('%6Cogs.example/index.html');
    expect(await own.save(new URL('http://logsite/'), true, bytes('e'))).toBe('logsite/index.html');
  });

  it('tags a folder that a file already blocks with the later URL', async () => {
    expect(await store.save(new URL('http://h/a'), false, bytes('file a'))).toBe('h/a');
    const later = 'http://h/a/b/c.pdf';
    expect(await store.save(new URL(later), false, bytes('c'))).toBe(`h/a${tag(later)}/b/c.pdf`);
    expect(await store.save(new URL(later), false, bytes('c2'), `h/a${tag(later)}/b/c.pdf`)).toBe(`h/a${tag(later)}/b/c.pdf`);
    expect((await store.read('h/a')).toString()).toBe('file a');
  });

  it('tags a file that a folder already blocks with the later URL, before its extension', async () => {
    await store.save(new URL('http://h/x.pdf/y'), false, bytes('y'));
    await store.save(new URL('http://h/a/b'), false, bytes('b'));
    const pdf = await store.save(new URL('http://h/x.pdf'), false, bytes('pdf'));
    const bare = await store.save(new URL('http://h/a'), false, bytes('a'));
    expect([pdf, bare]).toEqual([`h/x${tag('http://h/x.pdf')}.pdf`, `h/a${tag('http://h/a')}`]);
    expect((await store.read(pdf)).toString()).toBe('pdf');
    expect(await store.save(new URL('http://h/x.pdf'), false, bytes('pdf2'))).toBe(pdf);
  });

  it('finds the same places again from what is on disk, in a new process', async () => {
    await store.save(new URL('http://h/a'), false, bytes('a'));
    const first = await store.save(new URL('http://h/a/b'), false, bytes('b'));
    const again = new MirrorStore(repo);
    expect(await again.save(new URL('http://h/a/b'), false, bytes('b2'), first)).toBe(first);
    expect(await again.save(new URL('http://h/a'), false, bytes('a2'), 'h/a')).toBe('h/a');
  });

  it('stores concurrent saves into one new folder, and racing file/folder pairs, without losing any', async () => {
    const urls = Array.from({ length: 40 }, (_, i) => new URL(`http://h/deep/new/folder/p${i}.html`));
    urls.push(new URL('http://h/r'), new URL('http://h/r/s'), new URL('http://h/t/u'), new URL('http://h/t'));
    const paths = await Promise.all(urls.map((u) => store.save(u, false, bytes(u.href))));
    expect(new Set(paths).size).toBe(urls.length);
    for (const [i, path] of paths.entries()) expect((await store.read(path)).toString()).toBe(urls[i]?.href);
    expect((await files(repo)).filter((f) => f.includes('.tarantula/tmp/'))).toEqual([]);
  });

  it('makes each folder once, not once per page', async () => {
    const mkdir = vi.mocked(fsp.mkdir);
    mkdir.mockClear();
    for (let i = 0; i < 20; i++) await store.save(new URL(`http://h/a/b/${i}`), false, bytes('x'));
    // the temporary-file folder, then h/a/b
    expect(mkdir).toHaveBeenCalledTimes(2);
  });

  it('writes nothing outside the repository for hostile URLs', async () => {
    const hostile = ['http://h/../../x', 'http://../..', 'http://h/..%2F..%2Fx', 'http://h/%2e%2e/y', 'http://h/con',
      `http://h/${'z'.repeat(400)}`, 'http://h/a\\..\\..\\b', 'http://[::1]:81/?../../q'];
    for (const href of hostile) await store.save(new URL(href), true, bytes(href));
    expect((await files(base)).every((f) => f.startsWith('repo/'))).toBe(true);
    expect(await files(repo)).toHaveLength(hostile.length);
  });

  it('refuses to read outside the repository', async () => {
    await writeFile(join(base, 'secret'), 'no');
    await expect(store.read('../secret')).rejects.toThrow(/outside the repository/);
    await expect(store.read('/etc/passwd')).rejects.toThrow(/outside the repository/);
  });

  it('adopts another repository\'s copy at its localPath as a hard link, and tags a name that is taken', async () => {
    const other = new MirrorStore(join(base, 'other'));
    const from = join(base, 'other', await other.save(new URL('http://h/a/b.pdf'), false, bytes('b')));
    expect(await store.adopt(new URL('http://h/a/b.pdf'), 'h/a/b.pdf', from)).toEqual({ localPath: 'h/a/b.pdf', how: 'linked' });
    expect((await fsp.stat(join(repo, 'h/a/b.pdf'))).ino).toBe((await fsp.stat(from)).ino);
    await store.save(new URL('http://h/x'), false, bytes('a file where the folder x/ is needed'));
    const blocked = 'http://h/x/y.pdf';
    expect((await store.adopt(new URL(blocked), 'h/x/y.pdf', from)).localPath).toBe(`h/x${tag(blocked)}/y.pdf`);
    expect(await files(repo)).toEqual(['h/a/b.pdf', 'h/x', `h/x${tag(blocked)}/y.pdf`]);
  });

  it('adopts nothing at a localPath that leads outside the repository', async () => {
    await writeFile(join(base, 'f'), 'f');
    for (const path of ['../x/y', 'h/../../y', '/etc/y', 'h//y', 'y']) await expect(store.adopt(new URL('http://h/y'), path, join(base, 'f'))).rejects.toThrow(/outside the repository/);
    expect(await files(base)).toEqual(['f']);
  });

  it('fails, leaving no temporary file, when the repository cannot be written', async () => {
    await writeFile(repo, 'a file, not a folder');
    await expect(store.save(new URL('http://h/x'), false, bytes('x'))).rejects.toThrow();
    expect(await files(base)).toEqual(['repo']);
  });
});

describe('MirrorStore with synchronous file operations (the document worker)', () => {
  it('stores, overwrites and resolves collisions in both directions as the asynchronous store does', async () => {
    const sync = new MirrorStore(repo, { sync: true });
    expect(await sync.save(new URL('http://h/a'), false, bytes('file a'))).toBe('h/a');
    const later = 'http://h/a/b/c.pdf';
    expect(await sync.save(new URL(later), false, bytes('c'))).toBe(`h/a${tag(later)}/b/c.pdf`);
    await sync.save(new URL('http://h/x.pdf/y'), false, bytes('y'));
    const pdf = await sync.save(new URL('http://h/x.pdf'), false, bytes('pdf'));
    expect(pdf).toBe(`h/x${tag('http://h/x.pdf')}.pdf`);
    expect(await sync.save(new URL('http://h/'), true, bytes('home'))).toBe('h/index.html');
    expect(await sync.save(new URL('http://h/'), true, bytes('home 2'), 'h/index.html')).toBe('h/index.html');
    expect((await sync.read('h/index.html')).toString()).toBe('home 2');
    expect(await sync.save(new URL('http://h/index.html'), true, bytes('other'))).toBe(`h/index${tag('http://h/index.html')}.html`);
    expect((await files(repo)).filter((f) => f.includes('.tarantula/tmp/'))).toEqual([]);
  });
});
