import { ConfigError } from '../config/config-error.js';
import { proxyUrlOf } from '../config/network-values.js';
import { BadValue } from '../config/value-parsers.js';
import { inCidr } from './address-class.js';
import { bare } from './address-guard.js';

/** Where requests go through a proxy: a proxy URL per scheme, and the hosts that are reached directly. */
export interface ProxySettings {
  /** The proxy of http: URLs, or undefined for none. */
  readonly http: string | undefined;
  /** The proxy of https: URLs, or undefined for none. */
  readonly https: string | undefined;
  /** Whether a host (and port) bypasses the proxy (NO_PROXY). */
  readonly bypass: (hostname: string, port: number) => boolean;
}

/**
 * The proxies of a crawl, read as curl reads them: the `proxy` key (curl's `--proxy`) for every
 * scheme, else `http_proxy` for http: and `https_proxy` for https: URLs, else `all_proxy`; each
 * name lower case first, then upper case; a bare `host:port` is http. `no_proxy` / `NO_PROXY`
 * apply in every case. Undefined when no proxy is set.
 *
 * @throws {ConfigError} `env-bad-value` for a variable that is no http(s) proxy URL.
 *
 * @example
 * proxySettings(undefined, { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: '.internal' })
 * //=> { http: undefined, https: 'http://proxy:3128', bypass: [Function] }
 */
export function proxySettings(proxy: string | undefined, env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const named = (name: string): string | undefined => (env[name] ? name : env[name.toUpperCase()] ? name.toUpperCase() : undefined);
  const read = (name: string): string | undefined => {
    const variable = named(name);
    return variable === undefined ? undefined : proxyFromEnv(variable, env[variable]!);
  };
  const all = proxy ?? read('all_proxy');
  const http = proxy ?? read('http_proxy') ?? all;
  const https = proxy ?? read('https_proxy') ?? all;
  if (http === undefined && https === undefined) return undefined;
  const noProxy = named('no_proxy');
  return { http, https, bypass: noProxyRule(noProxy === undefined ? '' : env[noProxy]!) };
}

/** A proxy variable's URL, or a configuration error naming the variable. */
function proxyFromEnv(variable: string, text: string): string {
  try {
    return proxyUrlOf(text, variable);
  } catch (err) {
    if (err instanceof BadValue) throw new ConfigError('env-bad-value', '', err.message);
    throw err;
  }
}

/**
 * NO_PROXY as curl reads it: names separated by commas (or spaces); `*` alone means every host; a
 * name matches itself and its subdomains, with or without a leading dot (`.a.test` and `a.test`
 * both match `www.a.test`); `NAME:PORT` matches that port only; IPv6 addresses with or without brackets;
 * `ADDRESS/BITS` matches a literal address in that range (curl 7.86 and later).
 *
 * @example
 * noProxyRule('localhost, .internal, cache.test:8080')('www.internal', 80) //=> true
 */
export function noProxyRule(noProxy: string): (hostname: string, port: number) => boolean {
  const words = noProxy.split(/[\s,]+/).filter((e) => e !== '');
  const ranges = words.map((w) => /^(.+)\/(\d+)$/.exec(w)).filter((m): m is RegExpExecArray => m !== null).map((m) => [bare(m[1]!), Number(m[2])] as const);
  const entries = words
    .filter((w) => !w.includes('/'))
    .map((entry) => {
      const m = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(entry);
      return { name: bare(m ? m[1]! : entry).replace(/^\*?\./, ''), port: m ? Number(m[2]) : 0 };
    });
  if (entries.some((e) => e.name === '*')) return () => true;
  return (hostname, port) => {
    const host = bare(hostname);
    return (
      entries.some((e) => (e.port === 0 || e.port === port) && (host === e.name || host.endsWith(`.${e.name}`))) ||
      ranges.some(([network, prefix]) => inCidr(host, network, prefix))
    );
  };
}
