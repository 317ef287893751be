import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hostnameOfHeader, parseDomainHostname } from '../../src/core/custom-domain.js';
import { LinkforgeError } from '../../src/core/errors.js';

const OWN = ['sho.rt'];

/** ADR 0036: a custom domain's hostname as stored, and a Host header read the same way. */
describe('custom domain hostnames', () => {
  test('a public name is stored lower-case, punycode, without its trailing dot', () => {
    assert.equal(parseDomainHostname('Go.Example.COM.', OWN), 'go.example.com');
    assert.equal(parseDomainHostname('münchen.example.de', OWN), 'xn--mnchen-3ya.example.de');
    assert.equal(parseDomainHostname('a-b.c1.example.io', OWN), 'a-b.c1.example.io');
  });

  test('what is not a public DNS name, or is the instance\'s own host, is domain_invalid', () => {
    for (const bad of ['sho.rt', 'localhost', 'printer.local', 'x.test', 'box.internal', '10.0.0.1', '1.2.3.4', 'example', 'http://x.example.com',
      'x.example.com:443', 'x.example.com/a', 'user@x.example.com', '-a.example.com', 'a-.example.com', 'a..example.com', '*.example.com', `${'a.'.repeat(127)}com`]) {
      assert.throws(() => parseDomainHostname(bad, OWN), (error: unknown) => error instanceof LinkforgeError && error.code === 'domain_invalid', bad);
    }
    assert.throws(() => parseDomainHostname(42, OWN));
  });

  test('never throws anything but domain_invalid, and what it accepts it accepts again unchanged', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (raw) => {
      try {
        const hostname = parseDomainHostname(raw, OWN);
        assert.equal(parseDomainHostname(hostname, OWN), hostname);
        assert.equal(hostname, hostname.toLowerCase());
      } catch (error) {
        assert.ok(error instanceof LinkforgeError && error.code === 'domain_invalid', String(error));
      }
    }), { numRuns: 2000 });
  });

  test('a Host header loses its port, case and trailing dot; an IPv6 literal keeps its brackets', () => {
    assert.equal(hostnameOfHeader('Go.Example.com:8443'), 'go.example.com');
    assert.equal(hostnameOfHeader('go.example.com.'), 'go.example.com');
    assert.equal(hostnameOfHeader('[::1]:80'), '[::1]');
    assert.equal(hostnameOfHeader(undefined), '');
  });
});
