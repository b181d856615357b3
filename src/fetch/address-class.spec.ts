import { describe, expect, it } from 'vitest';
import { addressClass, inCidr, type AddressClass } from './address-class.js';

describe('addressClass', () => {
  it.each<[string, AddressClass | undefined]>([
    ['0.0.0.0', 'unspecified'],
    ['0.255.1.2', 'unspecified'],
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['100.63.255.255', undefined],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['100.128.0.0', undefined],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.15.255.255', undefined],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', undefined],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'benchmark'],
    ['198.19.255.255', 'benchmark'],
    ['198.20.0.0', undefined],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['8.8.8.8', undefined],
    ['93.184.215.14', undefined],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmark'],
    ['2001::1', 'reserved'],
    ['100::1', 'reserved'],
    ['fec0::1', 'reserved'],
    ['::a00:5', 'reserved'],
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:a00:5', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', undefined],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::808:808', undefined],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', undefined],
    ['2606:4700:4700::1111', undefined],
    ['2001:4860:4860::8888', undefined],
    ['example.test', undefined],
    ['999.1.1.1', undefined],
  ])('%s is %s', (address, expected) => {
    expect(addressClass(address)).toBe(expected);
  });
});

describe('inCidr', () => {
  it.each<[string, string, number, boolean]>([
    ['10.1.2.3', '10.0.0.0', 8, true],
    ['11.1.2.3', '10.0.0.0', 8, false],
    ['1.2.3.4', '0.0.0.0', 0, true],
    ['[fd12::1]', 'fd00::', 8, true],
    ['fe80::1', 'fd00::', 8, false],
    ['10.1.2.3', 'fd00::', 8, false],
    ['name.test', '10.0.0.0', 8, false],
  ])('%s in %s/%i: %s', (address, network, prefix, expected) => {
    expect(inCidr(address, network, prefix)).toBe(expected);
  });
});
