import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mmdbFile, type MmdbValue } from './mmdb-writer.js';
import { onTeardown, type TeardownScope } from './teardown.js';

/** GeoIP2 City records, as MaxMind's City files hold them. */
const city = (country: string, region: string | null, name: string | null): MmdbValue => ({
  country: { iso_code: country, names: { en: country } },
  ...(region === null ? {} : { subdivisions: [{ iso_code: region.slice(0, 2).toUpperCase(), names: { en: region } }] }),
  ...(name === null ? {} : { city: { geoname_id: 1, names: { en: name } } }),
});

/** Public addresses of the test City database, and where it puts them. */
export const CITY_ADDRESSES = {
  london: '81.2.69.142',
  berlin: '2a02:8108::1',
  springfieldIllinois: '200.160.2.3',
  springfieldMissouri: '202.12.27.33',
  /** In a country, with no region or city. */
  netherlands: '193.0.6.139',
} as const;

/** A GeoIP2-City-shaped file with the addresses above, and `extra` networks; its path, removed when `scope` ends. */
export function writeTestCityDatabase(scope: TeardownScope, extra: Readonly<Record<string, MmdbValue>> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-city-'));
  onTeardown(scope, async () => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'GeoIP2-City-Test.mmdb');
  fs.writeFileSync(file, mmdbFile('GeoIP2-City', {
    '81.2.69.0/24': city('GB', 'England', 'London'),
    '2a02:8108::/32': city('DE', 'Berlin', 'Berlin'),
    '200.160.0.0/20': city('US', 'Illinois', 'Springfield'),
    '202.12.27.0/24': city('US', 'Missouri', 'Springfield'),
    '193.0.6.0/24': city('NL', null, null),
    ...extra,
  }));
  return file;
}

/** A City record for a network of `extra`. */
export const cityRecord = city;
