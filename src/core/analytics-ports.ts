/**
 * Click analytics (SPEC section 8, issue 9): what the redirect path records in memory, what the
 * flusher writes in one transaction, and what the read side answers from counters and roll-ups.
 */

export type VisitorClass = 'human' | 'bot' | 'preview';

/** What a redirect's request tells about its visitor; nothing that identifies them. */
export interface VisitFacts {
  readonly visitorClass: VisitorClass;
  /** Host of the Referer header only (no path, no query); null when absent or unparseable. */
  readonly referrerHost: string | null;
  readonly browser: string | null;
  readonly os: string | null;
  /** desktop, mobile, tablet, bot, … (the classifier's vocabulary, documented where it is made). */
  readonly device: string | null;
}

/** One answered redirect, as the flusher receives it. */
export interface Visit extends VisitFacts {
  readonly linkId: number;
  readonly visitedAt: number;
  /** Handler latency in milliseconds, from receiving the request to just before the response. */
  readonly latencyMs: number;
}

/**
 * Everything one flush writes, in one transaction: the classified visits of the interval, column by
 * column. The facts of each distinct visitor (User-Agent and Referer) are in `facts` once; a visit
 * is numbers only, so a batch crosses to the SQLite writer thread as a few typed arrays and a short
 * list, and rolls up without building a string per visit. A redirect whose event did not fit in
 * the buffer is not here; the recorder counts those drops.
 */
export interface AnalyticsBatch {
  readonly size: number;
  readonly linkIds: Float64Array;
  readonly visitedAt: Float64Array;
  readonly latencyMs: Float64Array;
  /** The index in `facts` of each visit's facts. */
  readonly factsIndex: Uint32Array;
  readonly facts: readonly VisitFacts[];
}

/**
 * The write side. One transaction per batch: per-link counters by class, `avg_redirect_ms` merged
 * as Welford's running mean would have been updated one by one, the visit rows, the hourly clicks
 * and daily breakdown roll-ups, and the global totals row.
 */
export interface AnalyticsStore {
  recordBatch(batch: AnalyticsBatch): Promise<void>;
}

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
export type BreakdownDimension = 'referrer' | 'browser' | 'os' | 'device';
export const BREAKDOWN_DIMENSIONS: readonly BreakdownDimension[] = ['referrer', 'browser', 'os', 'device'];

/** One non-empty bucket of the hourly roll-up, summed to the interval. */
export interface ClickBucket {
  /** Start of the UTC hour or day, epoch milliseconds. */
  readonly start: number;
  readonly clicks: ClassCounts;
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
 * The read side (issue 9, item 3): everything from counters and roll-ups, so an answer costs the
 * same after ten million visits as after ten.
 */
export interface AnalyticsReadStore {
  findGlobalStats(now: number): Promise<GlobalStats>;
  /** The buckets of the range that have clicks, oldest first (empty ones are not stored). */
  listClickBuckets(range: LinkStatsRange): Promise<ClickBucket[]>;
  /**
   * The top `limit` values of each dimension by total clicks over the whole UTC days the range
   * touches (the breakdown roll-up is daily), most clicked first, ties by value.
   */
  listTopValues(range: LinkStatsRange, limit: number): Promise<Record<BreakdownDimension, BreakdownEntry[]>>;
}
