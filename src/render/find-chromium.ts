import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The Chromium to render with: `chromium-path` if it can be run, else the first `chromium` (or
 * `chromium-browser`) on PATH; undefined when there is none.
 *
 * @example
 * findChromium(undefined, process.env.PATH) //=> '/usr/bin/chromium'
 */
export function findChromium(path: string | undefined, searchPath = process.env['PATH'] ?? ''): string | undefined {
  const candidates = path !== undefined ? [path] : searchPath.split(delimiter).filter(Boolean).flatMap((dir) => [join(dir, 'chromium'), join(dir, 'chromium-browser')]);
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
