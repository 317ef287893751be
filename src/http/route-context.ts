import type { onRequestAsyncHookHandler } from 'fastify';
import type { CodeWithStatus } from '../core/error-codes.js';
import { LinkforgeError } from '../core/errors.js';
import type { Clock } from '../core/ports.js';
import type { AuthGuards } from './auth.js';
import type { ShortUrls } from '../core/short-urls.js';

/** Limits per client and minute; `0` turns one off. */
export interface RouteRateLimits {
  readonly anonPerMinute: number;
  readonly authPerMinute: number;
}

/** What this instance lets strangers do: register, shorten without an account; and how people sign in. */
export interface InstancePolicy {
  readonly registrationAllowed: boolean;
  readonly anonymousLinksAllowed: boolean;
  /** PASSWORD_LOGIN: false refuses password sign-in and registration (ADR 0034). */
  readonly passwordLogin: boolean;
  /** The name on the "Sign in with …" button, when an OpenID Connect provider is configured. */
  readonly singleSignOnName: string | undefined;
}

/**
 * What every route module shares beside its own module's services: the base URL short links are
 * shown under, the clock their times are read against, the rate limits, the instance's policy and
 * the auth guards.
 */
export interface RouteContext {
  readonly baseUrl: string;
  /** Links' short addresses, on BASE_URL or their custom domain. */
  readonly urls: ShortUrls;
  readonly clock: Clock;
  readonly rateLimit: RouteRateLimits;
  readonly instance: InstancePolicy;
  readonly guards: AuthGuards;
}

/**
 * A route's hook that answers 403 `code` before the body is read or validated, when the instance's
 * policy does not allow what the route does; no hook at all when it does. A fresh array each call:
 * plugins (the rate limiter) add their own hooks to a route's array, so one must never be shared.
 */
export function refuseUnless(allowed: boolean, code: CodeWithStatus<403>): onRequestAsyncHookHandler[] | undefined {
  return allowed ? undefined : [async () => { throw new LinkforgeError(code); }];
}
