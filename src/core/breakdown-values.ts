import type { BreakdownDimension, VisitFacts } from './visit-ports.js';

/**
 * The value that stands for every value of a dimension beyond a link's cap for the day (ADR 0021).
 * Parentheses are in no host name, and no browser, OS or device name of the classifier, so no
 * real value can be it; the device vocabulary's own `other` is a real value and stays apart.
 */
export const OTHER_VALUE = '(other)';

/** Between a city value's parts: geolocation names are stored without control characters (geo/country-database.ts). */
const CITY_PARTS = '\t';

/** A city as `link_breakdown_daily` keys it: one city name is in many countries and regions (ADR 0027). */
export interface CityKey {
  readonly country: string;
  readonly region: string | null;
  readonly city: string;
}

/** The facts' field each dimension but `city` reads. */
export const FACT_OF: Record<Exclude<BreakdownDimension, 'city'>, 'referrerHost' | 'browser' | 'os' | 'device' | 'country' | 'destination'> = {
  referrer: 'referrerHost', browser: 'browser', os: 'os', device: 'device', country: 'country', destination: 'destination',
};

/** A city's value: country, region and city name in one text; a folded city is OTHER_VALUE alone. */
function cityValue(facts: VisitFacts): string | null {
  if (facts.city === OTHER_VALUE) return OTHER_VALUE;
  if (!facts.city || !facts.country) return null;
  return [facts.country, facts.region ?? '', facts.city].join(CITY_PARTS);
}

/** The value a visit's facts give a dimension's breakdown row; null adds no row (unknown). */
export function breakdownValue(facts: VisitFacts, dimension: BreakdownDimension): string | null {
  return dimension === 'city' ? cityValue(facts) : facts[FACT_OF[dimension]] ?? null;
}

/** The city a stored value names; undefined for OTHER_VALUE (and for what no visit wrote). */
export function cityOfValue(value: string): CityKey | undefined {
  const [country, region, city, ...rest] = value.split(CITY_PARTS);
  if (country === undefined || region === undefined || !city || rest.length > 0) return undefined;
  return { country, region: region === '' ? null : region, city };
}
