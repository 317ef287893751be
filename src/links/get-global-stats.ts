import type { AnalyticsReadStore, GlobalStats } from '../core/analytics-ports.js';
import type { Clock } from '../core/ports.js';
import type { OwnedLinkDeps } from './link-access.js';

/** The stats module's services bag (the read side of visits), built once in deps.ts. */
export interface StatsDeps {
  readonly store: AnalyticsReadStore;
  readonly clock: Clock;
  /** A link's stats are shown to whoever may read the link itself. */
  readonly links: OwnedLinkDeps;
}

/** `GET /api/stats` (SPEC section 8): public, from the global counters and one indexed count of live links. */
export function getGlobalStats(deps: Pick<StatsDeps, 'store' | 'clock'>): Promise<GlobalStats> {
  return deps.store.findGlobalStats(deps.clock.now());
}
