import { mergeRepositories } from '../distributed/merge-repositories.js';

/**
 * `tarantula merge INTO REPOSITORY…`: makes one repository of a crawl's parts and says what it made on
 * `err`. Returns the exit status: 0 merged; 2 a bad argument (INTO one of the parts or not empty, a part
 * that is no repository); 1 a part being crawled or killed, or a merge that cannot be written.
 *
 * @example
 * process.exitCode = await runMerge(['all', 'machine-a', 'machine-b']);
 * //=> tarantula: merged 2 repositories into /…/all: 20000 documents, …
 */
export async function runMerge(paths: readonly string[], err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const [into, ...parts] = paths as [string, ...string[]];
  try {
    const s = await mergeRepositories(into, parts, (line) => err.write(`tarantula: ${line}\n`));
    const mirror = [s.mirror.linked > 0 ? `${s.mirror.linked} hard-linked` : '', s.mirror.copied > 0 ? `${s.mirror.copied} copied` : '', s.mirror.missing > 0 ? `${s.mirror.missing} missing` : ''].filter((x) => x !== '');
    err.write(
      `tarantula: merged ${s.parts} repositor${s.parts === 1 ? 'y' : 'ies'} into ${into}: ${s.documents} documents` +
        (s.older > 0 ? ` (${s.older} older record${s.older === 1 ? '' : 's'} of the same URLs left out)` : '') +
        `, mirror files ${mirror.length > 0 ? mirror.join(', ') : 'none'}` +
        (s.warcFiles > 0 ? `, ${s.warcFiles} WARC file${s.warcFiles === 1 ? '' : 's'} and ${s.cdxjLines} CDXJ lines in index.cdxj` : ', no WARC files') +
        '\n',
    );
    return 0;
  } catch (e) {
    const exit = (e as { exitCode?: number }).exitCode;
    err.write(`tarantula: ${exit !== undefined ? '' : `cannot merge into ${into}: `}${(e as Error).message}\n`);
    return exit ?? 1;
  }
}
