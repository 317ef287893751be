import type { InstanceCounts } from '../core/admin-ports.js';
import type { GlobalStats } from '../core/stats-ports.js';
import type { AdminServices } from './admin-services.js';

export interface InstanceOverview {
  readonly counts: InstanceCounts;
  readonly traffic: GlobalStats;
}

/** The instance at a glance: its accounts and links by state, and every redirect it counted. */
export async function getInstanceOverview(deps: Pick<AdminServices, 'store' | 'stats' | 'clock'>): Promise<InstanceOverview> {
  const now = deps.clock.now();
  const [counts, traffic] = await Promise.all([deps.store.countInstance(now), deps.stats.findGlobalStats(now)]);
  return { counts, traffic };
}

export interface BlocklistPage {
  readonly file: string | null;
  /** Every domain in force. */
  readonly total: number;
  /** Those that contain `search`, sorted, at most `limit`. */
  readonly matching: number;
  readonly domains: string[];
}

/** The blocklist in force, searched: the file may hold many thousands of domains. */
export function listBlocklist(deps: Pick<AdminServices, 'blocklist'>, query: { search?: string; limit?: number }): BlocklistPage {
  const search = query.search?.trim().toLowerCase();
  const all = [...deps.blocklist.domains];
  const matching = (search ? all.filter((domain) => domain.includes(search)) : all).sort();
  const limit = Math.min(Math.max(query.limit ?? 100, 1), 1000);
  return { file: deps.blocklist.file, total: all.length, matching: matching.length, domains: matching.slice(0, limit) };
}
