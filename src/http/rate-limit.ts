import type { FastifyInstance } from 'fastify';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { LinkforgeError } from '../core/errors.js';

/** Route-level limits only; `0` turns a limit off (SPEC section 7). */
export function rateLimitPerMinute(max: number) {
  return max > 0 ? { max, timeWindow: 60_000 } : false;
}

/** A store shared by every instance (a Redis client and its key namespace), in the plugin's own terms. */
export type SharedRateLimitStore = Required<Pick<RateLimitPluginOptions, 'redis' | 'nameSpace'>>;

export async function registerRateLimits(app: FastifyInstance, shared?: SharedRateLimitStore): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    ...shared,
    // A shared store that fails lets the request through: a Redis outage must never become a 500.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => new LinkforgeError('rate_limit_exceeded',
      `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s.`),
  });
}
