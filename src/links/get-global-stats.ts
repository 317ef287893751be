import type { StatsReadStore, GlobalStats } from '../core/stats-ports.js';
import type { LinkShareStore } from '../core/link-share-ports.js';
import type { VisitExportStore } from '../core/visit-export-ports.js';
import type { Clock } from '../core/ports.js';
import type { OwnedLinkDeps } from './link-access.js';

/** The stats module's services bag (the read side of visits), built once in deps.ts. */
export interface StatsDeps {
  readonly store: StatsReadStore;
  readonly clock: Clock;
  /** A link's stats are shown to whoever may read the link itself. */
  readonly links: OwnedLinkDeps;
  /** Raw visits, a page at a time, for the CSV export (export-visits.ts). */
  readonly visits: VisitExportStore;
  /** Read-only share addresses of a link's stats (share-link-stats.ts). */
  readonly shares: LinkShareStore;
}

/** `GET /api/stats` (ADR 0014): public, from the global counters and one indexed count of live links. */
export function getGlobalStats(deps: Pick<StatsDeps, 'store' | 'clock'>): Promise<GlobalStats> {
  return deps.store.findGlobalStats(deps.clock.now());
}
