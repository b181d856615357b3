import type { CookieJar } from 'tough-cookie';
import type { Dispatcher } from 'undici';
import { DelegatingDispatcher } from './delegating-dispatcher.js';
import { DelegatingHandler } from './delegating-handler.js';

/** A handler that records the request it is for, told of a header a dispatcher adds below it. */
export interface HeaderObserver {
  addedHeader(name: string, value: string): void;
}

/** A cookie jar, and who to tell when it changed (to save it). */
export interface CookieStore {
  readonly jar: CookieJar;
  changed(): void;
}

/**
 * Keeps cookies for the crawl, as a browser would within RFC 6265's rules (tough-cookie's jar:
 * domains, paths, expiry, Secure, public suffixes): each request carries the jar's cookies for its
 * URL, and each response's Set-Cookie goes into the jar. Requests made while the jar is still
 * loading wait for it.
 *
 * @example
 * const dispatcher = new CookieDispatcher(agent, CookieFile.open('repo/.tarantula/cookies.json', warn));
 */
export class CookieDispatcher extends DelegatingDispatcher {
  private store: CookieStore | undefined;

  constructor(
    private readonly next: Dispatcher,
    private readonly loading: Promise<CookieStore>,
  ) {
    super([next]);
    loading.then((store) => (this.store = store), () => undefined);
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const store = this.store;
    if (store === undefined) {
      this.loading.then(() => this.dispatch(options, handler), (err: Error) => handler.onError?.(err));
      return true;
    }
    const url = `${String(options.origin)}${options.path}`;
    const cookie = store.jar.getCookieStringSync(url);
    const headers = cookie ? { ...(options.headers as Record<string, string>), cookie } : options.headers;
    // The request as sent carries the cookie: a handler that keeps the exchange (for a WARC) is told.
    if (cookie) (handler as Partial<HeaderObserver>).addedHeader?.('cookie', cookie);
    return this.next.dispatch({ ...options, headers }, new SetCookieHandler(handler, (value) => {
      if (store.jar.setCookieSync(value, url, { ignoreError: true })) store.changed();
    }));
  }
}

const SET_COOKIE = 'set-cookie';

/** Passes every callback on, reading the Set-Cookie headers of the response on the way. */
class SetCookieHandler extends DelegatingHandler {
  constructor(
    handler: Dispatcher.DispatchHandler,
    private readonly setCookie: (value: string) => void,
  ) {
    super(handler);
  }

  override onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!;
      // Most names differ in length: only those of the right length are decoded and compared.
      if (name.length === SET_COOKIE.length && name.toString('latin1').toLowerCase() === SET_COOKIE) this.setCookie(rawHeaders[i + 1]!.toString('latin1'));
    }
    return super.onHeaders(statusCode, rawHeaders, resume, statusText);
  }
}
