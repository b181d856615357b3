import { describe, expect, it } from 'vitest';
import type { ConfValue } from './parse-conf.js';
import { isLoopbackHost, serveAddress } from './network-values.js';

const scalar = (text: string): ConfValue => ({ kind: 'scalar', text, line: 1 });

describe('serveAddress', () => {
  it.each([
    ['9464', { host: '127.0.0.1', port: 9464 }],
    ['0', { host: '127.0.0.1', port: 0 }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80 }],
    ['localhost:9464', { host: 'localhost', port: 9464 }],
    ['[::1]:9464', { host: '::1', port: 9464 }],
  ])('reads %s', (text, address) => {
    expect(serveAddress(scalar(text), 'serve')).toEqual(address);
  });

  it('reads an empty value as off', () => {
    expect(serveAddress(scalar(''), 'serve')).toBeUndefined();
  });

  it.each(['host:', ':9464', '65536', '::1:9464', '[nothost]:1', 'a b:1'])('refuses %s', (text) => {
    expect(() => serveAddress(scalar(text), 'serve')).toThrow(`"${text}" is not [HOST:]PORT for serve`);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true], ['127.1.2.3', true], ['::1', true], ['localhost', true],
    ['0.0.0.0', false], ['::', false], ['192.168.1.2', false], ['example.test', false],
  ] as const)('%s: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
