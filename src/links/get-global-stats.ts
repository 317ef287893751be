import type { StatsReadStore, GlobalStats } from '../core/stats-ports.js';
import type { Clock } from '../core/ports.js';

/** What the statistics use cases need; built once in deps.ts. */
export interface StatsDeps {
  readonly store: StatsReadStore;
  readonly clock: Clock;
}

/** `GET /api/stats` (ADR 0014): public, from the global counters and one indexed count of live links. */
export function getGlobalStats(deps: StatsDeps): Promise<GlobalStats> {
  return deps.store.findGlobalStats(deps.clock.now());
}
