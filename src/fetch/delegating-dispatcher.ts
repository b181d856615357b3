import type { Dispatcher as DispatcherType } from 'undici';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';

/**
 * A dispatcher that hands every request to another one, for wrappers that change where a request
 * goes or what it carries (proxies, cookies). Closing or destroying it closes what it wraps.
 */
export abstract class DelegatingDispatcher extends Dispatcher {
  protected constructor(protected readonly inner: readonly DispatcherType[]) {
    super();
  }

  abstract override dispatch(options: DispatcherType.DispatchOptions, handler: DispatcherType.DispatchHandler): boolean;

  override close(): Promise<void> {
    return Promise.all(this.inner.map((d) => d.close())).then(() => undefined);
  }

  override destroy(): Promise<void> {
    return Promise.all(this.inner.map((d) => d.destroy())).then(() => undefined);
  }
}
