import { readFileSync, renameSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { CookieJar } from 'tough-cookie';

/** Changes to the jar are written at most this often (and when the crawl ends). */
const SAVE_DELAY_MS = 1000;

/**
 * The crawl's cookie jar, kept in `REPOSITORY/.tarantula/cookies.json` so that a resumed or repeated
 * crawl still has the session it logged in with. Written whole (a temporary file renamed over the
 * old one), within a second of a change and when the crawl ends; a kill loses at most that second.
 * tough-cookie (with its public suffix list) is loaded only when cookies are on: it took 0.2 s to load.
 *
 * @example
 * const cookies = CookieFile.open('repo/.tarantula/cookies.json', (msg) => log.warn(msg));
 * new CookieDispatcher(agent, cookies);
 */
export class CookieFile {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    readonly jar: CookieJar,
    private readonly warn: (message: string) => void,
  ) {}

  /** The jar saved at `path`, or a new one; a file that cannot be read as a jar is set aside as `PATH.broken`, with a warning. */
  static async open(path: string, warn: (message: string) => void): Promise<CookieFile> {
    const { CookieJar } = await import('tough-cookie');
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return new CookieFile(path, new CookieJar(), warn);
    }
    try {
      return new CookieFile(path, CookieJar.deserializeSync(text), warn);
    } catch (err) {
      renameSync(path, `${path}.broken`);
      warn(`${path} is not a cookie jar (${(err as Error).message}); kept as ${path}.broken, starting with no cookies`);
      return new CookieFile(path, new CookieJar(), warn);
    }
  }

  /** The jar changed: schedules a save, one per {@link SAVE_DELAY_MS} at most. */
  changed(): void {
    this.timer ??= setTimeout(() => {
      this.save().catch((err: unknown) => this.warn(`cannot save the cookies in ${this.path}: ${(err as Error).message}`));
    }, SAVE_DELAY_MS).unref();
  }

  /** Writes the jar now (after any write under way). */
  save(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const json = JSON.stringify(this.jar.serializeSync());
    // A failed write (reported by its caller) does not stop the next one.
    this.writing = this.writing.catch(() => undefined).then(async () => {
      await writeFile(`${this.path}.tmp`, json);
      await rename(`${this.path}.tmp`, this.path);
    });
    return this.writing;
  }
}
