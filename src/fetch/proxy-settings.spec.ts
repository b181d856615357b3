import { describe, expect, it } from 'vitest';
import { noProxyRule, proxySettings } from './proxy-settings.js';

describe('proxySettings', () => {
  it('is undefined without a proxy anywhere', () => {
    expect(proxySettings(undefined, { NO_PROXY: 'a.test' })).toBeUndefined();
  });

  it.each<[string | undefined, NodeJS.ProcessEnv, string | undefined, string | undefined]>([
    [undefined, { http_proxy: 'http://p:1' }, 'http://p:1', undefined],
    [undefined, { HTTP_PROXY: 'http://P:1' }, 'http://P:1', undefined],
    [undefined, { http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:1' }, 'http://lower:1', undefined],
    [undefined, { HTTPS_PROXY: 'http://s:1' }, undefined, 'http://s:1'],
    [undefined, { ALL_PROXY: 'http://a:1', https_proxy: 'http://s:1' }, 'http://a:1', 'http://s:1'],
    [undefined, { http_proxy: '', HTTP_PROXY: 'http://u:1' }, 'http://u:1', undefined],
    ['http://flag:1', { http_proxy: 'http://p:1', https_proxy: 'http://s:1' }, 'http://flag:1', 'http://flag:1'],
    [undefined, { https_proxy: 'proxy.test:3128' }, undefined, 'http://proxy.test:3128'],
  ])('--proxy %s with %j: http %s, https %s', (proxy, env, http, https) => {
    expect(proxySettings(proxy, env)).toMatchObject({ http, https });
  });

  it('refuses a variable that is no http(s) proxy URL, naming it', () => {
    expect(() => proxySettings(undefined, { HTTPS_PROXY: 'socks4://p.test:1080' })).toThrow(
      'HTTPS_PROXY "socks4://p.test:1080": only http:// and https:// proxies are supported',
    );
  });

  it('applies no_proxy (lower case first) with --proxy too', () => {
    const settings = proxySettings('http://p:1', { no_proxy: 'a.test', NO_PROXY: 'b.test' })!;
    expect([settings.bypass('a.test', 80), settings.bypass('b.test', 80)]).toEqual([true, false]);
  });
});

describe('noProxyRule', () => {
  it.each<[string, string, number, boolean]>([
    ['a.test', 'a.test', 80, true],
    ['a.test', 'www.a.test', 80, true],
    ['a.test', 'nota.test', 80, false],
    ['.a.test', 'www.a.test', 443, true],
    ['.a.test', 'a.test', 80, true],
    ['*.a.test', 'x.a.test', 80, true],
    ['A.Test', 'a.test', 80, true],
    ['a.test:8080', 'a.test', 8080, true],
    ['a.test:8080', 'a.test', 80, false],
    ['localhost, 127.0.0.1 ::1', '::1', 80, true],
    ['[::1]:8080', '[::1]', 8080, true],
    ['*', 'anything.test', 443, true],
    ['b.test,,c.test', 'a.test', 80, false],
    ['', 'a.test', 80, false],
    ['10.0.0.0/8', '10.20.30.40', 80, true],
    ['10.0.0.0/8', '11.0.0.1', 80, false],
    ['10.0.0.0/8', 'a10.test', 80, false],
    ['a.test, fd00::/8', '[fd12::1]', 443, true],
    ['192.168.0.0/33', '192.168.0.1', 80, false],
  ])('NO_PROXY=%j: %s:%i bypasses the proxy: %s', (noProxy, host, port, expected) => {
    expect(noProxyRule(noProxy)(host, port)).toBe(expected);
  });
});
