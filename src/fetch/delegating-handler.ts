import type { Dispatcher } from 'undici';

/**
 * A dispatch handler that passes every callback to another one, in undici's own (legacy) callback
 * API, which fetchDocument's handler speaks; wrappers override the callbacks they look at.
 */
export class DelegatingHandler implements Dispatcher.DispatchHandler {
  constructor(protected readonly handler: Dispatcher.DispatchHandler) {}

  onConnect(abort: (err?: Error) => void): void {
    this.handler.onConnect?.(abort);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    return this.handler.onHeaders?.(statusCode, rawHeaders, resume, statusText) ?? true;
  }

  onData(chunk: Buffer): boolean {
    return this.handler.onData?.(chunk) ?? true;
  }

  onComplete(trailers: string[] | null): void {
    this.handler.onComplete?.(trailers);
  }

  onError(err: Error): void {
    this.handler.onError?.(err);
  }
}
