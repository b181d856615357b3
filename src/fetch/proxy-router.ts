import type { LookupAddress } from 'node:dns';
import type { Dispatcher } from 'undici';
import connectApi from 'undici/lib/api/api-connect.js';
import DispatcherBase from 'undici/lib/dispatcher/dispatcher.js';
import { bare, literalAddress, type AddressGuard, type PrivateAddressError } from './address-guard.js';
import { DelegatingDispatcher } from './delegating-dispatcher.js';
import { DelegatingHandler } from './delegating-handler.js';
import { FetchError } from './fetch-error.js';
import type { Lookup } from './guarded-connector.js';
import type { ProxySettings } from './proxy-settings.js';

export interface ProxyRouterOptions {
  /** Requests that bypass the proxy (NO_PROXY, or no proxy for their scheme); its connector guards them. */
  readonly direct: Dispatcher;
  readonly settings: ProxySettings;
  /** The dispatcher through one proxy URL (undici's ProxyAgent); made once per URL. */
  readonly through: (proxyUrl: string) => Dispatcher;
  readonly guard: AddressGuard;
  readonly lookup: Lookup;
  /** The address a `resolve` entry pins HOST:PORT to: the user chose it. */
  readonly pinned: (hostname: string, port: number) => string | undefined;
}

/**
 * Sends each request through the proxy of its scheme, or directly (NO_PROXY). Behind a proxy the
 * proxy opens the connection, so the SSRF guard judges the target before the request instead: its
 * literal address, or every address its name resolves to here (one refused address refuses the
 * request). A name that does not resolve here goes to the proxy, which may see a DNS we do not.
 *
 * @example
 * new ProxyRouter({ direct, settings: proxySettings(undefined, process.env)!, through: (uri) => new ProxyAgent({ uri }), guard, lookup, pinned })
 */
export class ProxyRouter extends DelegatingDispatcher {
  private readonly proxies: ReadonlyMap<string, Dispatcher>;

  constructor(private readonly opts: ProxyRouterOptions) {
    // ProxyAgent opens its CONNECT tunnels with Dispatcher#connect, which only undici's index (not loaded) puts on the prototype.
    DispatcherBase.prototype.connect ??= connectApi;
    const urls = new Set([opts.settings.http, opts.settings.https].filter((u): u is string => u !== undefined));
    const proxies = new Map([...urls].map((url) => [url, opts.through(url)] as const));
    super([opts.direct, ...proxies.values()]);
    this.proxies = proxies;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const url = new URL(String(options.origin));
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const proxyUrl = url.protocol === 'https:' ? this.opts.settings.https : this.opts.settings.http;
    if (proxyUrl === undefined || this.opts.settings.bypass(url.hostname, port)) return this.opts.direct.dispatch(options, handler);
    const proxy = this.proxies.get(proxyUrl)!;
    this.judge(bare(url.hostname), port, (refused) => {
      if (refused) handler.onError?.(refused);
      else proxy.dispatch(options, new ProxyErrorHandler(handler));
    });
    return true;
  }

  private judge(hostname: string, port: number, done: (refused: PrivateAddressError | undefined) => void): void {
    const { guard } = this.opts;
    if (this.opts.pinned(hostname, port) !== undefined) return done(undefined);
    const literal = literalAddress(hostname);
    if (literal !== undefined) return done(guard.refusal(hostname, literal));
    this.opts.lookup(hostname, { all: true }, (err, addresses) => {
      if (err) return done(undefined);
      for (const { address } of addresses as LookupAddress[]) {
        const refused = guard.refusal(hostname, address);
        if (refused) return done(refused);
      }
      done(undefined);
    });
  }
}

/**
 * Names the proxy's refusals, which undici reports as an aborted request (a CONNECT answered with
 * anything but 200) or a bad argument (407): `proxy-refused`, retried like a 5xx, and
 * `proxy-auth`, given up. Every other callback passes through.
 */
class ProxyErrorHandler extends DelegatingHandler {
  override onError(err: Error): void {
    const { message } = err;
    if (message.startsWith('Proxy response (')) super.onError(new FetchError('proxy-refused', message, 'retry'));
    else if (message.startsWith('Proxy Authentication Required')) super.onError(new FetchError('proxy-auth', `${message}: give the proxy URL as http://user:password@host:port`, 'give-up'));
    else super.onError(err);
  }
}
