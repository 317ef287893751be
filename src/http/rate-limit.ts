import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { LinkforgeError } from '../core/errors.js';
import type { SharedRateLimitStore } from '../core/ports.js';
import { fallbackRateLimitStore } from './fallback-rate-limit-store.js';

/** Route-level limits only; `0` turns a limit off. */
export function rateLimitPerMinute(max: number) {
  return max > 0 ? { max, timeWindow: 60_000 } : false;
}

export async function registerRateLimits(app: FastifyInstance, shared?: SharedRateLimitStore): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    ...(shared ? { store: fallbackRateLimitStore(shared) } : {}),
    // Should counting fail even so, the request goes through: a Redis outage must never become a 500.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => new LinkforgeError('rate_limit_exceeded',
      `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s.`),
  });
}
