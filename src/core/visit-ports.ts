/**
 * The write side of visits (docs/architecture.md, "Follow a visit"): what the redirect path
 * records in memory, what the flusher hands the database in one transaction, and what that
 * transaction adds and appends. The read side (counters and roll-ups answered) is core/stats-ports.ts.
 */

import type { VisitorSighting } from './visitor-ports.js';

export type VisitorClass = 'human' | 'bot' | 'preview';

/** The dimensions a day's visits are broken down by (link_breakdown_daily). */
export type BreakdownDimension = 'referrer' | 'browser' | 'os' | 'device' | 'country' | 'city' | 'destination';
export const BREAKDOWN_DIMENSIONS: readonly BreakdownDimension[] = ['referrer', 'browser', 'os', 'device', 'country', 'city', 'destination'];

/** What a redirect's request tells about its visitor; nothing that identifies them. */
export interface VisitFacts {
  readonly visitorClass: VisitorClass;
  /** Host of the Referer header only (no path, no query); null when absent or unparseable. */
  readonly referrerHost: string | null;
  readonly browser: string | null;
  readonly os: string | null;
  /** desktop, mobile, tablet, bot, … (the classifier's vocabulary, documented where it is made). */
  readonly device: string | null;
  /** ISO 3166-1 alpha-2 code of the country the visitor's address is in; null (or absent) when unknown or not looked up. The address itself is never kept. */
  readonly country?: string | null;
  /** The region (first subdivision) and city by their English names, when the database has them (ADR 0027); null (or absent) when unknown. */
  readonly region?: string | null;
  readonly city?: string | null;
  /** The route or variant that served the visit (`route:0`, `variant:1`; ADR 0031); null (or absent) when the link's own URL did. */
  readonly destination?: string | null;
}

/** Where a client address is: what a geolocation database tells, looked up by the flusher (ADR 0025, 0027). */
export interface Place {
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
  readonly region: string | null;
  readonly city: string | null;
}

/** One answered redirect, as the flusher receives it. */
export interface Visit extends VisitFacts {
  readonly linkId: number;
  readonly visitedAt: number;
  /** Handler latency in milliseconds, from receiving the request to just before the response. */
  readonly latencyMs: number;
  /** The visitor's id of the day (core/visitor-ports.ts); absent for a visit that has none. */
  readonly visitorId?: number;
}

/**
 * Everything one flush writes, in one transaction: the classified visits of the interval, column by
 * column. The facts of each distinct visitor (User-Agent and Referer) are in `facts` once; a visit
 * is numbers only, so a batch crosses to the SQLite writer thread as a few typed arrays and a short
 * list, and rolls up without building a string per visit. A redirect whose event did not fit in
 * the buffer is not here; the recorder counts those drops.
 */
export interface VisitBatch {
  readonly size: number;
  readonly linkIds: Float64Array;
  readonly visitedAt: Float64Array;
  readonly latencyMs: Float64Array;
  /** The index in `facts` of each visit's facts. */
  readonly factsIndex: Uint32Array;
  readonly facts: readonly VisitFacts[];
  /** Each visit's visitor id of its day, NaN for none (bots, previews, no address); absent when no visit has one (ADR 0028). */
  readonly visitorIds?: Float64Array;
}

/**
 * The flusher's port. One transaction per batch: what `VisitStatements` adds and appends, in the
 * order storage/visits/record-visits.ts runs them.
 */
export interface VisitWriter {
  recordBatch(batch: VisitBatch): Promise<void>;
  /** Batches the flusher may have in flight at once (1 when absent): each is still written whole or not at all. */
  readonly writesAtOnce?: number;
}

/** A batch's visits of one link, or of all links: how many, their latency sum, their split by class. */
export interface VisitTotals {
  count: number;
  latencySum: number;
  human: number;
  bot: number;
  preview: number;
}

/** Clicks of one link in one UTC hour and class (`link_clicks_hourly`). */
export interface HourlyClicks {
  readonly linkId: number;
  readonly hourStart: number;
  readonly visitorClass: VisitorClass;
  clicks: number;
}

/** Clicks of one link on one UTC day by one value of one dimension and class (`link_breakdown_daily`). */
export interface DailyBreakdown {
  readonly linkId: number;
  readonly dayStart: number;
  readonly dimension: BreakdownDimension;
  readonly value: string;
  readonly visitorClass: VisitorClass;
  clicks: number;
}

/** The values `link_breakdown_daily` already holds for one link's day, by dimension. */
export type StoredDayValues = ReadonlyMap<BreakdownDimension, ReadonlySet<string>>;

/** One link's UTC day. */
export interface LinkDay {
  readonly linkId: number;
  readonly dayStart: number;
}

/**
 * What one batch does to a database, step by step, inside the caller's transaction. Two
 * implementations sit side by side in storage/visits/: Kysely (PostgreSQL, and imports on either
 * database) and raw SQL on the SQLite writer thread. One contract suite holds both
 * (test/contract/visit-writer.test.ts).
 */
export interface VisitStatements {
  /** Adds every visit to the global row, also those of links gone since (the redirects did happen). */
  addToGlobal(total: VisitTotals): Promise<void>;
  /**
   * Adds each link's visits to its counters, the mean merged as core/welford.ts `mergeIntoMean`
   * does; answers the links whose row still exists (a purged link's visits go no further), each
   * with its `redirect_count` after the batch (what spares a small link's day the read of its
   * stored values: core/breakdown-folding.ts `rowsThatMayFold`).
   */
  addToLinks(perLink: ReadonlyMap<number, VisitTotals>): Promise<ReadonlyMap<number, number>>;
  /** The breakdown values stored for these link days, by `linkDayKey` (the cap on values needs them). */
  storedDayValues(linkDays: readonly LinkDay[]): Promise<ReadonlyMap<string, StoredDayValues>>;
  /** The `visit_facts` id of each of `facts` that `lastUsed` gives a time (0 for NaN), moving its last use forward. */
  factsIds(facts: readonly VisitFacts[], lastUsed: ArrayLike<number>): Promise<ArrayLike<number>>;
  /** Appends the visit rows at `order` (positions in `batch`), answering each row's id and link, in any order. */
  appendVisits(batch: VisitBatch, order: ArrayLike<number>, factsIds: ArrayLike<number>): Promise<AppendedVisits>;
  /** Appends one `visit_ranges` row per link over the rows just appended (storage/visits/visit-ranges.ts). */
  appendRanges(visits: AppendedVisits): Promise<void>;
  /** Adds to the hourly roll-up, each key once. */
  appendHourly(rows: readonly HourlyClicks[]): Promise<void>;
  /** Adds to the daily breakdown roll-up, each key once. */
  appendDaily(rows: readonly DailyBreakdown[]): Promise<void>;
  /** Keeps each visitor id not yet seen on its link's day, and adds those new ones to their hour's `unique_visitors` (ADR 0028). */
  appendVisitors(rows: readonly VisitorSighting[]): Promise<void>;
}

/** The ids of visit rows just appended, and the link of each. */
export interface AppendedVisits {
  readonly ids: ArrayLike<number>;
  readonly linkIds: ArrayLike<number>;
}
