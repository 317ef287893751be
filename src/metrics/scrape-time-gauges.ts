import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../core/ports.js';
import type { DatabaseUsage, VisitBacklog } from '../core/metrics-ports.js';

/** What the gauges read when /metrics is scraped; each is optional (analytics off, no log destination). */
export interface MetricsSources {
  readonly clock: Clock;
  readonly database?: () => DatabaseUsage;
  /** The analytics buffer, when analytics are on (a function: it is built after the metrics). */
  readonly visits?: () => VisitBacklog;
  /** Entries in the in-process link cache. */
  readonly cachedLinks?: () => number;
  /** Log lines the destination could not write (src/logging/log-destination.ts). */
  readonly droppedLogLines?: () => number;
}

/** Values the app already keeps (the pool, the visit buffer, the log destination), read when scraped. */
export function registerScrapeTimeGauges(registry: Registry, sources: MetricsSources): void {
  const registers = [registry];
  const { database, visits: backlog, cachedLinks, droppedLogLines, clock } = sources;
  // The mode does not change while the process runs: only its own gauges are registered.
  const mode = database?.().kind;
  if (database && mode === 'postgres') {
    new Gauge({
      name: 'linkforge_db_pool_connections', help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one (waiting).',
      labelNames: ['state'], registers,
      collect() {
        const usage = database();
        if (usage.kind !== 'postgres') return;
        this.set({ state: 'total' }, usage.pool.total);
        this.set({ state: 'idle' }, usage.pool.idle);
        this.set({ state: 'waiting' }, usage.pool.waiting);
      },
    });
  }
  if (database && mode === 'sqlite') {
    new Gauge({
      name: 'linkforge_sqlite_write_queue', help: 'SQLite: writes sent to the writer thread and not yet answered.',
      registers,
      collect() {
        const usage = database();
        if (usage.kind === 'sqlite') this.set(usage.writeQueue);
      },
    });
  }
  if (backlog) {
    new Gauge({
      name: 'linkforge_analytics_flush_lag_seconds', help: 'Age of the oldest recorded visit not yet written to the database; 0 when none waits.',
      registers,
      collect() {
        const oldest = backlog().oldestPendingAt;
        this.set(oldest === undefined ? 0 : Math.max(0, clock.now() - oldest) / 1000);
      },
    });
    new Gauge({ name: 'linkforge_analytics_visits_buffered', help: 'Visits waiting in memory for the next flush.', registers, collect() { this.set(backlog().size); } });
    new Counter({
      name: 'linkforge_analytics_visits_dropped_total', help: 'Visits not recorded: the buffer was full (the database was too slow or down), their headers passed its text bound, or their write failed five times.',
      registers, collect() { this.reset(); this.inc(backlog().dropped); },
    });
  }
  if (cachedLinks) {
    new Gauge({ name: 'linkforge_cache_entries', help: 'Links and tombstones in the in-process cache.', registers, collect() { this.set(cachedLinks()); } });
  }
  if (droppedLogLines) {
    new Counter({
      name: 'linkforge_log_lines_dropped_total', help: 'Log lines that could not be written (a full disk, a closed pipe) and were dropped.',
      registers, collect() { this.reset(); this.inc(droppedLogLines()); },
    });
  }
}
