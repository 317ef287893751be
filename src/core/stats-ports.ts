import type { BreakdownDimension } from './visit-ports.js';

/** The read side of visits ("stats"): what is answered from counters and roll-ups, never from visit rows. */

/** Clicks split by visitor class; `total` is their sum. */
export interface ClassCounts {
  readonly total: number;
  readonly human: number;
  readonly bot: number;
  readonly preview: number;
}

/** `GET /api/stats`: counters only, never a scan of visits. */
export interface GlobalStats {
  /** Links that are ACTIVE and not past their expiry at `now`. */
  readonly totalLinks: number;
  readonly totalRedirects: number;
  /** The redirect-weighted mean handler latency of every redirect ever counted; 0 before the first. */
  readonly avgLatencyMs: number;
  readonly redirects: ClassCounts;
}

export type StatsInterval = 'hour' | 'day';

/** One non-empty bucket of the hourly roll-up, summed to the interval. */
export interface ClickBucket {
  /** Start of the UTC hour or day, epoch milliseconds. */
  readonly start: number;
  readonly clicks: ClassCounts;
  /** People first seen on the link's UTC day within the bucket: a day's visitors, or an hour's new ones (ADR 0028). */
  readonly uniqueVisitors: number;
}

/**
 * One value of a breakdown dimension. The write side adds no breakdown row for a visit without
 * that fact (no referrer: a direct visit; a browser the parser does not know), so `value: null`
 * is the days' clicks less those of every known value.
 */
export interface BreakdownEntry {
  readonly value: string | null;
  readonly clicks: ClassCounts;
}

export interface LinkStatsRange {
  readonly linkId: number;
  /** Inclusive, aligned to the interval. */
  readonly from: number;
  /** Exclusive, aligned to the interval. */
  readonly to: number;
  readonly interval: StatsInterval;
}

/**
 * Everything from counters and roll-ups, so an answer costs the same after ten million visits as
 * after ten.
 */
export interface StatsReadStore {
  findGlobalStats(now: number): Promise<GlobalStats>;
  /** The buckets of the range that have clicks, oldest first (empty ones are not stored). */
  listClickBuckets(range: LinkStatsRange): Promise<ClickBucket[]>;
  /**
   * The top `limit` values of each dimension by total clicks over the whole UTC days the range
   * touches (the breakdown roll-up is daily), most clicked first, ties by value.
   */
  listTopValues(range: LinkStatsRange, limit: number): Promise<Record<BreakdownDimension, BreakdownEntry[]>>;
}
