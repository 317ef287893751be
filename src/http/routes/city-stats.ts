import { Type } from '@sinclair/typebox';
import { MAX_VALUES_PER_DAY, OTHER_VALUE } from '../../core/breakdown-folding.js';
import { cityOfValue } from '../../core/breakdown-values.js';
import { regionName } from '../../core/region-names.js';
import type { BreakdownEntry } from '../../core/stats-ports.js';
import { TOP_VALUES } from '../../links/get-link-stats.js';

const Count = Type.Integer({ minimum: 0 });

/** `cities` of a link's stats (ADR 0027): the countries' shape, with the city and its region. */
export const CitiesJson = Type.Array(Type.Object({
  country: Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Literal(OTHER_VALUE)], {
    description: `ISO 3166-1 alpha-2 of the city's country; \`${OTHER_VALUE}\` (with \`city\` \`${OTHER_VALUE}\`) for the clicks of cities past the ${MAX_VALUES_PER_DAY} a link keeps each day.`,
  }),
  name: Type.String({ description: 'The country\'s English name.' }),
  region: Type.Optional(Type.String({ description: 'The first subdivision (state, province, …) by its English name, when the database has it.' })),
  city: Type.String({ description: 'The city\'s English name.' }),
  people: Count, bots: Count, previews: Count, total: Count,
}), {
  maxItems: TOP_VALUES,
  description: `The ${TOP_VALUES} cities with the most clicks, most first, over the whole UTC days the range touches. Only with a City database (GEOIP_DATABASE): empty otherwise. Clicks whose city is unknown are not listed (their countries are). No address is stored: the place is looked up when the visit is written, and the address dropped.`,
});

export function citiesToJson(entries: readonly BreakdownEntry[]) {
  return entries.flatMap(({ value, clicks }) => {
    const counts = { people: clicks.human, bots: clicks.bot, previews: clicks.preview, total: clicks.total };
    if (value === OTHER_VALUE) return [{ country: OTHER_VALUE, name: 'Other cities', city: OTHER_VALUE, ...counts }];
    const place = value === null ? undefined : cityOfValue(value);
    if (place === undefined) return [];
    const name = regionName(place.country) ?? place.country;
    return [{ country: place.country, name, ...(place.region === null ? {} : { region: place.region }), city: place.city, ...counts }];
  });
}
