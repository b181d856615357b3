import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readReportData } from './report-data.js';
import { renderReport } from './render-report.js';

/**
 * Writes `REPOSITORY/report.html` (through a temporary file, so a reader never sees half a report)
 * and returns its path.
 *
 * @throws {NoCrawlError} when the folder holds no crawl.
 * @example
 * await writeReport('demo-output') //=> 'demo-output/report.html'
 */
export async function writeReport(repository: string): Promise<string> {
  const html = renderReport(await readReportData(repository));
  const path = join(repository, 'report.html');
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, html);
  await rename(temp, path);
  return path;
}
