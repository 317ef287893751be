import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { SharedRateLimitStore } from '../core/ports.js';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
/** The plugin calls `incr` with the window and the limit too (its own stores read them). */
interface PluginStore {
  incr(key: string, callback: Callback, timeWindow?: number, max?: number): void;
  child(routeOptions: FastifyRateLimitOptions & { routeInfo: unknown }): PluginStore;
}
interface StoreFlags { readonly continueExceeding?: boolean; readonly exponentialBackoff?: boolean }

// The plugin's two stores, which it does not export by name: the same counting rules in both.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (continueExceeding?: boolean, exponentialBackoff?: boolean, redis?: unknown, key?: string) => PluginStore;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (continueExceeding?: boolean, exponentialBackoff?: boolean) => PluginStore;

/**
 * Counts in the shared store; while that fails (Redis down or slow), in this instance's memory,
 * so that an outage loosens the limits to one per instance instead of lifting them.
 */
class FallbackStore implements PluginStore {
  constructor(private readonly shared: PluginStore, private readonly local: PluginStore) {}

  incr(key: string, callback: Callback, timeWindow?: number, max?: number): void {
    this.shared.incr(key, (error, result) => {
      if (error) this.local.incr(key, callback, timeWindow, max);
      else callback(null, result);
    }, timeWindow, max);
  }

  child(routeOptions: FastifyRateLimitOptions & { routeInfo: unknown }): PluginStore {
    return new FallbackStore(this.shared.child(routeOptions), this.local.child(routeOptions));
  }
}

export function fallbackRateLimitStore(shared: SharedRateLimitStore): FastifyRateLimitStoreCtor {
  return class extends FallbackStore {
    constructor(options: StoreFlags) {
      super(
        new RedisStore(options.continueExceeding, options.exponentialBackoff, shared.redis, shared.nameSpace),
        new LocalStore(options.continueExceeding, options.exponentialBackoff),
      );
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
