/**
 * What the application tells its metrics (ADR 0018). Use cases, jobs and the HTTP layer see these
 * ports only; src/metrics implements them with prom-client. The redirect path's calls are plain
 * increments: the adapter turns them into Prometheus series when /metrics is scraped.
 */

/** Where a redirect lookup was answered: the in-process LRU, Redis, or the database itself. */
export type CacheTier = 'memory' | 'redis' | 'database';

/** `hit`: the tier knew the code (a link, a tombstone or a remembered unknown); `error`: it failed and was skipped. */
export type LookupResult = 'hit' | 'miss' | 'error';

export interface LookupMetrics {
  lookup(tier: CacheTier, result: LookupResult): void;
}

/** Counted by the redirect responder itself: it answers before Fastify's hooks. */
export interface RedirectMetrics {
  /** One answered `GET|HEAD /{code}`: its status and the seconds from arrival to the answer. */
  answered(status: number, seconds: number): void;
}

/** Counted for every request Fastify answers, under its route pattern (never the raw URL). */
export interface RequestMetrics {
  requestAnswered(method: string, route: string, status: number, seconds: number): void;
}

/** What the HTTP layer needs: the counters it feeds and the text exposition. */
export interface HttpMetrics extends RequestMetrics {
  readonly redirects: RedirectMetrics;
  /** The Prometheus text exposition of everything, and its content type. */
  scrape(): Promise<{ readonly contentType: string; readonly text: string }>;
}

/** Read at scrape time: the visit buffer's backlog (src/visits/visit-buffer.ts). */
export interface VisitBacklog {
  /** Events waiting for a flush. */
  readonly size: number;
  /** Events dropped because the buffer was full, since start. */
  readonly dropped: number;
  /** When the oldest visit not yet written was recorded, or undefined when none waits. */
  readonly oldestPendingAt: number | undefined;
}

/** Read at scrape time: PostgreSQL's pool (pg's totalCount, idleCount, waitingCount). */
export interface ConnectionPoolUsage {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/** Read at scrape time: how the database is used right now, by mode. */
export type DatabaseUsage =
  | { readonly kind: 'postgres'; readonly pool: ConnectionPoolUsage }
  | { readonly kind: 'sqlite'; readonly writeQueue: number };
