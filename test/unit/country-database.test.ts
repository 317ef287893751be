import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openCountryDatabase } from '../../src/geo/country-database.js';

describe('the country of an address (the bundled DB-IP Lite database)', () => {
  test('public addresses, IPv4 as a dual-stack socket reports it, and IPv6, get their ISO code', () => {
    const countryOf = openCountryDatabase();
    assert.equal(countryOf('81.2.69.142'), 'GB');
    assert.equal(countryOf('::ffff:193.0.6.139'), 'NL');
    assert.equal(countryOf('202.12.27.33'), 'JP');
    assert.equal(typeof countryOf('2001:4860:4860::8888'), 'string');
  });

  test('loopback, private and unreadable addresses are in no country, and are answered without reading the file', () => {
    // A file that is there but is no database: reading it would fail.
    const countryOf = openCountryDatabase('package.json');
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.1', 'fd00::1', '::ffff:127.0.0.1', 'not an address', '']) {
      assert.equal(countryOf(address), null, address);
    }
    assert.throws(() => countryOf('81.2.69.142'), 'the file is read at the first public address');
  });

  test('a database file that cannot be read is refused when it is opened', () => {
    assert.throws(() => openCountryDatabase('/nonexistent/countries.mmdb'), /ENOENT/);
  });
});
