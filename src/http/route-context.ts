import type { Clock } from '../core/ports.js';
import type { AuthGuards } from './auth.js';

/** Limits per client and minute; `0` turns one off. */
export interface RouteRateLimits {
  readonly anonPerMinute: number;
  readonly authPerMinute: number;
}

/**
 * What every route module shares beside its own module's services: the base URL short links are
 * shown under, the clock their times are read against, the rate limits and the auth guards.
 */
export interface RouteContext {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly rateLimit: RouteRateLimits;
  readonly guards: AuthGuards;
}
