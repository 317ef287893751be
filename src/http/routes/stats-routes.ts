import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { MAX_VALUES_PER_DAY, OTHER_VALUE } from '../../core/breakdown-folding.js';
import type { GlobalStats } from '../../core/stats-ports.js';
import { regionName } from '../../core/region-names.js';
import { getGlobalStats, type StatsDeps } from '../../links/get-global-stats.js';
import { DEFAULT_STATS_DAYS, getLinkStats, MAX_STATS_BUCKETS, TOP_VALUES, type LinkStats } from '../../links/get-link-stats.js';
import { JWT_OR_API_KEY_SECURITY, JWT_SECURITY, NO_SECURITY, principalOf } from '../auth.js';
import { DomainQuery, Id } from '../link-fields.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';
import { CitiesJson, citiesToJson } from './city-stats.js';
import { DestinationsJson, destinationsToJson } from './destination-stats.js';

const Count = Type.Integer({ minimum: 0 });
const ClassCounts = Type.Object({ total: Count, human: Count, bot: Count, preview: Count }, {
  description: 'Clicks by visitor class: people, crawlers, and link-preview fetchers (chat apps, social networks).',
});
const UniqueVisitors = Type.Integer({
  minimum: 0,
  description: 'People (never bots or previews) counted once per link and UTC day by a daily-salted hash of address, User-Agent and link; nothing that identifies them is kept. '
    + 'A day bucket counts the day\'s visitors, an hour bucket those first seen that hour; a range sums its buckets, so a person who comes back on another day counts again. '
    + 'Visits with DNT, Sec-GPC or under ANALYTICS_PRIVACY=strict are not counted here.',
});
const TopValues = (what: string) => Type.Array(Type.Object({
  value: Type.Union([Type.String(), Type.Null()], { description: `The ${what}; null for the clicks without one (a direct visit, an agent not recognised); \`(other)\` for the clicks of values past the ${MAX_VALUES_PER_DAY} a link keeps each day.` }),
  clicks: ClassCounts,
}), { maxItems: TOP_VALUES, description: `The ${TOP_VALUES} ${what} values with the most clicks, most first.` });

export const StatsFields = {
  from: Type.String({ format: 'date-time', description: 'Start of the first bucket (inclusive).' }),
  to: Type.String({ format: 'date-time', description: 'End of the last bucket (exclusive).' }),
  interval: Type.Union([Type.Literal('hour'), Type.Literal('day')]),
  totals: Type.Object({ ...ClassCounts.properties, uniqueVisitors: UniqueVisitors }, { description: 'Clicks by visitor class over the range, and its unique visitors.' }),
  series: Type.Array(Type.Object({ start: Type.String({ format: 'date-time' }), clicks: ClassCounts, uniqueVisitors: UniqueVisitors }), {
    description: 'Every bucket of the range, oldest first, with zeros where nobody clicked.',
  }),
  breakdowns: Type.Object({
    referrers: TopValues('referrer host'), browsers: TopValues('browser'), oses: TopValues('operating system'), devices: TopValues('device type'),
  }, { description: 'Over the whole UTC days the range touches: these roll-ups are kept per day.' }),
  countries: Type.Array(Type.Object({
    country: Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Literal(OTHER_VALUE), Type.Null()], {
      description: `ISO 3166-1 alpha-2; null for clicks whose country is unknown (no address, an address in no country, or a request with DNT or Sec-GPC); \`${OTHER_VALUE}\` past the ${MAX_VALUES_PER_DAY} a link keeps each day.`,
    }),
    name: Type.String({ description: 'The country\'s English name.' }),
    people: Count, bots: Count, previews: Count, total: Count,
  }), { maxItems: TOP_VALUES, description: `The ${TOP_VALUES} countries with the most clicks, most first, over the whole UTC days the range touches. No address is stored: the country is looked up when the visit is written, and the address dropped.` }),
  cities: CitiesJson,
  destinations: DestinationsJson,
};
const LinkStatsJson = Type.Object({ linkId: Type.Integer(), ...StatsFields });
const LinkStatsV1Json = Type.Object({ short_code: Type.String(), ...StatsFields });

export const StatsQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: `ISO 8601; default: ${DEFAULT_STATS_DAYS} days before the end of the range. Rounded down to the interval.` })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601, exclusive; default: the end of the bucket holding now. Rounded up to the interval.' })),
  interval: Type.Optional(Type.Union([Type.Literal('hour'), Type.Literal('day')], {
    description: `Bucket size, default day. At most ${MAX_STATS_BUCKETS.hour} hourly or ${MAX_STATS_BUCKETS.day} daily buckets per request.`,
  })),
}, { additionalProperties: false });
type StatsQuery = Static<typeof StatsQuery>;
/** The v1 route names a link by its code, and by `?domain=` when it is on a custom domain (as the v1 link routes do). */
const V1StatsQuery = Type.Object({ ...StatsQuery.properties, ...DomainQuery.properties }, { additionalProperties: false });

export const GlobalStatsJson = Type.Object({
  totalLinks: Type.Integer({ minimum: 0, description: 'Links that are ACTIVE and not past their expiry.' }),
  totalRedirects: Type.Integer({ minimum: 0, description: 'Every redirect ever counted; purging links does not lower it.' }),
  avgLatencyMs: Type.Number({ minimum: 0, description: 'Mean redirect handler latency over all redirects, in milliseconds; 0 before the first.' }),
  redirectsByClass: Type.Object({ human: Count, bot: Count, preview: Count }),
});

const iso = (ms: number) => new Date(ms).toISOString();
export const parseQuery = (query: StatsQuery) => ({
  from: query.from === undefined ? undefined : Date.parse(query.from),
  to: query.to === undefined ? undefined : Date.parse(query.to),
  interval: query.interval,
});

const countryName = (code: string | null) => (code === null ? 'Unknown' : code === OTHER_VALUE ? 'Other countries' : regionName(code) ?? code);

export function statsToJson(stats: LinkStats) {
  const { referrer, browser, os, device, country, city } = stats.breakdowns;
  return {
    from: iso(stats.from),
    to: iso(stats.to),
    interval: stats.interval,
    totals: stats.totals,
    series: stats.series.map((bucket) => ({ start: iso(bucket.start), clicks: bucket.clicks, uniqueVisitors: bucket.uniqueVisitors })),
    breakdowns: { referrers: referrer, browsers: browser, oses: os, devices: device },
    countries: country.map(({ value, clicks }) => ({
      country: value, name: countryName(value), people: clicks.human, bots: clicks.bot, previews: clicks.preview, total: clicks.total,
    })),
    cities: citiesToJson(city),
    destinations: destinationsToJson(stats.destinations),
  };
}

export function globalStatsToJson(stats: GlobalStats) {
  const { human, bot, preview } = stats.redirects;
  return { totalLinks: stats.totalLinks, totalRedirects: stats.totalRedirects, avgLatencyMs: stats.avgLatencyMs, redirectsByClass: { human, bot, preview } };
}

/** ADR 0014: the public totals, and each link's statistics for whoever may read the link. */
export function registerStatsRoutes(app: FastifyInstance, statsDeps: StatsDeps, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  typedApp.get('/api/stats', {
    schema: {
      tags: ['stats'], security: NO_SECURITY, operationId: 'getGlobalStats',
      summary: 'Totals of the whole service: live links, redirects, mean latency, and the split by visitor class',
      response: { 200: GlobalStatsJson, ...errorResponses(503) },
    },
  }, async () => globalStatsToJson(await getGlobalStats(statsDeps)));

  typedApp.get('/api/urls/:id/stats', {
    preHandler: context.guards.requireUser,
    schema: {
      tags: ['links'], security: JWT_SECURITY, operationId: 'getLinkStats',
      summary: 'Clicks of one link over time, and its top referrers, browsers, OSes and devices, each by visitor class',
      params: Type.Object({ id: Id }), querystring: StatsQuery,
      response: { 200: LinkStatsJson, ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request) => {
    const stats = await getLinkStats(statsDeps, principalOf(request), request.params, parseQuery(request.query));
    return { linkId: stats.linkId, ...statsToJson(stats) };
  });

  typedApp.get('/api/v1/workspaces/:id/links/:short_code/stats', {
    preHandler: context.guards.requireUserOrApiKey,
    config: { apiKeyScope: 'stats:read' },
    schema: {
      tags: ['workspaces'], security: JWT_OR_API_KEY_SECURITY, operationId: 'getWorkspaceLinkStats',
      summary: 'Clicks of one link of the workspace over time, and its top referrers, browsers, OSes and devices',
      params: Type.Object({ id: Id, short_code: Type.String({ minLength: 1, maxLength: 64 }) }), querystring: V1StatsQuery,
      response: { 200: LinkStatsV1Json, ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request) => {
    const params = request.params;
    const selector = { workspaceId: params.id, code: params.short_code, domain: request.query.domain };
    const stats = await getLinkStats(statsDeps, principalOf(request), selector, parseQuery(request.query));
    return { short_code: params.short_code, ...statsToJson(stats) };
  });
}
