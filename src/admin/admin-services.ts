import type { OperatorStore } from '../core/admin-ports.js';
import type { Clock, LinkCacheInvalidator } from '../core/ports.js';
import type { StatsReadStore } from '../core/stats-ports.js';

/** The blocklist this instance loaded at start (BLOCKLIST_FILE): what it refuses now. */
export interface BlocklistInForce {
  /** The file it was read from, or null when none is configured. */
  readonly file: string | null;
  readonly domains: ReadonlySet<string>;
}

/** The operator's module's services bag, built once in deps.ts: `deps.admin`. */
export interface AdminServices {
  readonly store: OperatorStore;
  readonly stats: Pick<StatsReadStore, 'findGlobalStats'>;
  /** Disabling or enabling a link invalidates its code on every tier of every instance. */
  readonly cache: LinkCacheInvalidator;
  readonly clock: Clock;
  /** The domain key of the links the operator looks up by code. */
  readonly domain: string;
  readonly blocklist: BlocklistInForce;
}
