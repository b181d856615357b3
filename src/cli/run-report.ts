import { resolve } from 'node:path';
import { NoCrawlError } from '../report/report-data.js';
import { writeReport } from '../report/write-report.js';

/**
 * `tarantula report REPOSITORY`: writes REPOSITORY/report.html and says where on `err`. Returns the
 * exit status: 0 written; 1 the folder holds no crawl, or the report cannot be read or written.
 *
 * @example
 * process.exitCode = await runReport('demo-output');
 * //=> tarantula: report written to /…/demo-output/report.html
 */
export async function runReport(repository: string, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  try {
    const path = await writeReport(repository);
    err.write(`tarantula: report written to ${resolve(path)}\n`);
    return 0;
  } catch (e) {
    err.write(`tarantula: ${e instanceof NoCrawlError ? '' : `cannot write the report of ${repository}: `}${(e as Error).message}\n`);
    return 1;
  }
}
