import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { LinkforgeError } from '../core/errors.js';
import type { SharedRateLimitStore } from '../core/ports.js';
import { fallbackRateLimitStore } from './fallback-rate-limit-store.js';

/** Route-level limits only; `0` turns a limit off. */
export function rateLimitPerMinute(max: number) {
  return max > 0 ? { max, timeWindow: 60_000 } : false;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The name the route's limit goes by in the RateLimit headers; `default` when unnamed. */
    rateLimitPolicy?: string;
  }
}

/**
 * The IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers, structured-field form) beside the
 * plugin's own `x-ratelimit-*`, which it has no option for: read back from what the plugin set on
 * the reply, including its 429, on `/api/` routes only (ADR 0032). The redirect path never reaches
 * Fastify, so it pays nothing.
 */
function addRateLimitFields(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    const limit = reply.getHeader('x-ratelimit-limit');
    if (limit === undefined || !request.url.startsWith('/api/')) return;
    const { rateLimit, rateLimitPolicy = 'default' } = request.routeOptions.config;
    const windowMs = typeof rateLimit === 'object' && typeof rateLimit.timeWindow === 'number' ? rateLimit.timeWindow : 60_000;
    const name = JSON.stringify(rateLimitPolicy);
    reply.header('ratelimit-policy', `${name};q=${String(limit)};w=${Math.ceil(windowMs / 1000)}`);
    reply.header('ratelimit', `${name};r=${String(reply.getHeader('x-ratelimit-remaining'))};t=${String(reply.getHeader('x-ratelimit-reset'))}`);
  });
}

export async function registerRateLimits(app: FastifyInstance, shared?: SharedRateLimitStore): Promise<void> {
  addRateLimitFields(app);
  await app.register(rateLimit, {
    global: false,
    ...(shared ? { store: fallbackRateLimitStore(shared) } : {}),
    // Should counting fail even so, the request goes through: a Redis outage must never become a 500.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => new LinkforgeError('rate_limit_exceeded',
      `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s.`),
  });
}
