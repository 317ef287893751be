import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPlaceDatabase } from '../../src/geo/country-database.js';
import { mmdbFile } from '../support/mmdb-writer.js';

/** The bundled database answers places with a country only. */
const countryLookup = (file?: string) => {
  const placeOf = openPlaceDatabase(file);
  return (address: string) => placeOf(address)?.country ?? null;
};

describe('the country of an address (the bundled DB-IP Lite database)', () => {
  test('public addresses, IPv4 as a dual-stack socket reports it, and IPv6, get their ISO code', () => {
    const countryOf = countryLookup();
    assert.equal(countryOf('81.2.69.142'), 'GB');
    assert.equal(countryOf('::ffff:193.0.6.139'), 'NL');
    assert.equal(countryOf('202.12.27.33'), 'JP');
    assert.equal(typeof countryOf('2001:4860:4860::8888'), 'string');
  });

  test('loopback, private and unreadable addresses are in no country, and are answered without reading the file', () => {
    // A file that is there but is no database: reading it would fail.
    const countryOf = countryLookup('package.json');
    for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.0.1', 'fd00::1', '::ffff:127.0.0.1', 'not an address', '']) {
      assert.equal(countryOf(address), null, address);
    }
    assert.throws(() => countryOf('81.2.69.142'), 'the file is read at the first public address');
  });

  test('a database file that cannot be read is refused when it is opened', () => {
    assert.throws(() => openPlaceDatabase('/nonexistent/countries.mmdb'), /ENOENT/);
  });
});

describe('the region and city of an address (a City database given as GEOIP_DATABASE)', () => {
  const write = (name: string, file: Buffer) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-geo-'));
    const target = path.join(dir, name);
    fs.writeFileSync(target, file);
    return target;
  };

  test('a GeoIP2 / GeoLite2 City record gives its country, first subdivision and city by their English names', () => {
    const placeOf = openPlaceDatabase(write('GeoLite2-City.mmdb', mmdbFile('GeoLite2-City', {
      '81.2.69.0/24': {
        country: { iso_code: 'GB', names: { en: 'United Kingdom', de: 'Vereinigtes Königreich' } },
        subdivisions: [{ iso_code: 'ENG', names: { en: 'England' } }, { iso_code: 'WSM', names: { en: 'Westminster' } }],
        city: { geoname_id: 2643743, names: { en: 'London', fr: 'Londres' } },
      },
      '2a02:8108::/32': { country: { iso_code: 'DE' }, city: { names: { de: 'München' } } },
      '193.0.6.0/24': { country: { iso_code: 'NL' }, subdivisions: [{ names: { en: 'North Holland' } }] },
    })));
    assert.deepEqual(placeOf('81.2.69.142'), { country: 'GB', region: 'England', city: 'London' });
    assert.deepEqual(placeOf('::ffff:81.2.69.142'), { country: 'GB', region: 'England', city: 'London' });
    assert.deepEqual(placeOf('2a02:8108::1'), { country: 'DE', region: null, city: null }, 'a city without an English name is unknown');
    assert.deepEqual(placeOf('193.0.6.139'), { country: 'NL', region: 'North Holland', city: null });
    assert.equal(placeOf('81.2.70.1'), null, 'an address the file does not hold is nowhere');
  });

  test('an ip-location-db city record (country_code, state1, city) reads the same', () => {
    const placeOf = openPlaceDatabase(write('dbip-city.mmdb', mmdbFile('dbip-city', {
      '200.160.0.0/20': { country_code: 'BR', state1: 'São Paulo', state2: '', city: 'São Paulo' },
      '202.12.27.0/24': { country_code: 'JP', state1: '', city: '' },
    })));
    assert.deepEqual(placeOf('200.160.2.3'), { country: 'BR', region: 'São Paulo', city: 'São Paulo' });
    assert.deepEqual(placeOf('202.12.27.33'), { country: 'JP', region: null, city: null });
  });

  test('names are stored safe: control characters go, spaces fold, 100 characters at most; a bad country code is no place', () => {
    const geo = openPlaceDatabase(write('odd-public.mmdb', mmdbFile('GeoIP2-City', {
      '81.2.69.0/24': { country: { iso_code: 'FR' }, subdivisions: [{ names: { en: ' Île-de-\tFrance\n' } }], city: { names: { en: 'P'.repeat(150) } } },
      '193.0.6.0/24': { country: { iso_code: 'fr' }, city: { names: { en: 'Paris' } } },
      '202.12.27.0/24': { country_code: 'FRA', city: 'Paris' },
    })));
    assert.deepEqual(geo('81.2.69.1'), { country: 'FR', region: 'Île-de- France', city: 'P'.repeat(100) });
    assert.equal(geo('193.0.6.1'), null);
    assert.equal(geo('202.12.27.1'), null);
  });
});
