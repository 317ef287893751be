import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isForbiddenAddress } from '../../src/core/ip-ranges.js';

describe('isForbiddenAddress', () => {
  const forbidden: Array<[string, string]> = [
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'the 0/8 "this network" block'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'IPv6 unspecified'],
    ['::1', 'IPv6 loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['ff02::1', 'IPv6 multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['::127.0.0.1', 'IPv4-compatible loopback, dotted'],
    ['::808:808', 'IPv4-compatible, deprecated whatever it embeds'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::808:808', 'NAT64 of a public address'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::', '6to4'],
    ['2001::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'discard-only'],
    ['fec0::1', 'deprecated site-local'],
    ['fd00:ec2::254', 'AWS metadata over IPv6 (unique-local)'],
    ['100.100.100.200', 'Alibaba Cloud metadata (carrier-grade NAT)'],
    ['192.0.0.192', 'Oracle Cloud metadata (IETF protocol assignments)'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
  ];
  for (const [address, why] of forbidden) {
    test(`${address} is forbidden (${why})`, () => {
      assert.equal(isForbiddenAddress(address), true);
    });
  }

  const allowed = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1',
    '198.17.255.255', '198.20.0.1', '169.253.0.1', '2606:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::200e',
    '::ffff:8.8.8.8'];
  for (const address of allowed) {
    test(`${address} is an ordinary public address`, () => {
      assert.equal(isForbiddenAddress(address), false);
    });
  }

  test('numeric IPv4 shorthands are judged by the address they stand for', () => {
    for (const address of ['2130706433', '0x7f000001', '0177.0.0.1', '127.1']) assert.equal(isForbiddenAddress(address), true, address);
    assert.equal(isForbiddenAddress('134744072'), false, '8.8.8.8 as a single number');
  });

  test('text that is not an IP address is treated as forbidden', () => {
    for (const text of ['', 'localhost', 'example.com', '[::1]', '256.0.0.1', '1.2.3.4.5', '::ffff:999.0.0.1', ' 8.8.8.8']) {
      assert.equal(isForbiddenAddress(text), true, JSON.stringify(text));
    }
  });

  test('every address in 127/8, 10/8 and 169.254/16 is forbidden', () => {
    fc.assert(fc.property(fc.constantFrom(127, 10), fc.nat(255), fc.nat(255), fc.nat(255), (first, b, c, d) =>
      isForbiddenAddress(`${first}.${b}.${c}.${d}`) && isForbiddenAddress(`169.254.${c}.${d}`)), { numRuns: 2000 });
  });

  test('an IPv4 address and its IPv4-mapped IPv6 form always get the same answer', () => {
    fc.assert(fc.property(fc.ipV4(), (address) => isForbiddenAddress(address) === isForbiddenAddress(`::ffff:${address}`)),
      { numRuns: 5000 });
  });

  test('any string gets an answer without throwing', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.ipV4(), fc.ipV6(), fc.ipV4Extended()), (text) =>
      typeof isForbiddenAddress(text) === 'boolean'), { numRuns: 3000 });
  });
});
