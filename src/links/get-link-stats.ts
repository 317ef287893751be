import type { BreakdownDimension } from '../core/visit-ports.js';
import type { BreakdownEntry, ClassCounts, StatsInterval } from '../core/stats-ports.js';
import type { LinkOptions } from '../core/link-options.js';
import { servedUrl } from '../core/served-code.js';
import { ValidationError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import type { StatsDeps } from './get-global-stats.js';
import { findAccessibleLink, type LinkSelector } from './link-access.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INTERVAL_MS: Record<StatsInterval, number> = { hour: HOUR, day: DAY };

/** Without `from`, the range is the last 30 days; without `interval`, whole days. */
export const DEFAULT_STATS_DAYS = 30;
/** The most buckets one answer holds: 31 days of hours, or about a year of days. */
export const MAX_STATS_BUCKETS: Record<StatsInterval, number> = { hour: 31 * 24, day: 366 };
/** Values listed per breakdown dimension. */
export const TOP_VALUES = 10;

export interface LinkStatsQuery {
  readonly from?: number;
  readonly to?: number;
  readonly interval?: StatsInterval;
}

export interface LinkStats {
  readonly linkId: number;
  readonly from: number;
  readonly to: number;
  readonly interval: StatsInterval;
  /** `uniqueVisitors` is the sum of the buckets': the day salt changes, so a visitor of two days counts on each (ADR 0028). */
  readonly totals: ClassCounts & { readonly uniqueVisitors: number };
  /** Every bucket of the range, oldest first, empty ones as zeros. */
  readonly series: ReadonlyArray<{ readonly start: number; readonly clicks: ClassCounts; readonly uniqueVisitors: number }>;
  readonly breakdowns: Record<BreakdownDimension, BreakdownEntry[]>;
  /** Clicks by the route or variant that served them (ADR 0031), each with its URL in the link's current options (null when it is gone). */
  readonly destinations: readonly DestinationEntry[];
}

export interface DestinationEntry {
  readonly served: string;
  readonly url: string | null;
  readonly clicks: ClassCounts;
}

const ZERO: ClassCounts = { total: 0, human: 0, bot: 0, preview: 0 };

/**
 * The range, aligned outwards to whole buckets (UTC hours or days), so every bucket of the series
 * is complete. Without `to` it ends with the bucket holding now (today's clicks show); without
 * `from` it starts 30 days before its end.
 */
export function statsRange(query: LinkStatsQuery, now: number): { from: number; to: number; interval: StatsInterval } {
  const interval = query.interval ?? 'day';
  const size = INTERVAL_MS[interval];
  const rawTo = query.to ?? now + 1;
  const rawFrom = query.from ?? Math.ceil(rawTo / size) * size - DEFAULT_STATS_DAYS * DAY;
  if (!Number.isFinite(rawFrom) || !Number.isFinite(rawTo) || rawFrom < 0) throw new ValidationError('stats_range_invalid', 'from and to must be ISO 8601 date-times after 1970.');
  if (rawFrom >= rawTo) throw new ValidationError('stats_range_invalid', 'from must be before to.');
  const from = rawFrom - (rawFrom % size);
  const to = Math.ceil(rawTo / size) * size;
  const max = MAX_STATS_BUCKETS[interval];
  if ((to - from) / size > max) {
    throw new ValidationError('stats_range_invalid', `With interval=${interval} the range may span at most ${max} ${interval}s.`);
  }
  return { from, to, interval };
}

/**
 * `GET /api/urls/{id}/stats` and its v1 twin: whoever may read the link (like `GET` of the link
 * itself; everyone else gets link_not_found) sees its clicks over time and its top referrers,
 * browsers, OSes and devices, each split by visitor class. Only roll-ups are read.
 */
export async function getLinkStats(
  deps: StatsDeps, principal: Principal, selector: LinkSelector, query: LinkStatsQuery,
): Promise<LinkStats> {
  statsRange(query, deps.clock.now()); // a bad range is a 400 before the link is looked up
  const link = await findAccessibleLink(deps.links, principal, selector, 'read');
  return statsOfLink(deps, link.id, query, link.options);
}

/** The stats of a link whose access was checked: by getLinkStats, or by a share's token (get-shared-stats.ts). */
export async function statsOfLink(
  deps: Pick<StatsDeps, 'store' | 'clock'>, linkId: number, query: LinkStatsQuery, options: LinkOptions | null, shownUrl = (url: string) => url,
): Promise<LinkStats> {
  const { from, to, interval } = statsRange(query, deps.clock.now());
  const range = { linkId, from, to, interval };
  const [buckets, breakdowns] = await Promise.all([
    deps.store.listClickBuckets(range),
    deps.store.listTopValues(range, TOP_VALUES),
  ]);
  const byStart = new Map(buckets.map((bucket) => [bucket.start, bucket]));
  const size = INTERVAL_MS[interval];
  const series = [];
  const totals = { ...ZERO, uniqueVisitors: 0 };
  for (let start = from; start < to; start += size) {
    const bucket = byStart.get(start);
    const clicks = bucket?.clicks ?? ZERO;
    const uniqueVisitors = bucket?.uniqueVisitors ?? 0;
    series.push({ start, clicks, uniqueVisitors });
    for (const key of ['total', 'human', 'bot', 'preview'] as const) totals[key] += clicks[key];
    totals.uniqueVisitors += uniqueVisitors;
  }
  const destinations = breakdowns.destination.flatMap(({ value, clicks }) => {
    if (value === null) return [];
    const url = servedUrl(options, value);
    return [{ served: value, url: url === null ? null : shownUrl(url), clicks }];
  });
  return { linkId, from, to, interval, totals, series, breakdowns, destinations };
}
