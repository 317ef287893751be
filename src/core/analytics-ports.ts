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
 * Everything one flush writes, in one transaction: the classified visits of the interval. A
 * redirect whose event did not fit in the buffer is not here; the recorder counts those drops.
 */
export interface AnalyticsBatch {
  readonly visits: readonly Visit[];
}

/**
 * The write side. One transaction per batch: per-link counters by class, `avg_redirect_ms` merged
 * as Welford's running mean would have been updated one by one, the visit rows, the hourly clicks
 * and daily breakdown roll-ups, and the global totals row.
 */
export interface AnalyticsStore {
  recordBatch(batch: AnalyticsBatch): Promise<void>;
}
