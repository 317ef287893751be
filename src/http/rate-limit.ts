import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { LinkforgeError } from '../core/errors.js';
import type { SharedRateLimitStore } from '../core/ports.js';
import { fallbackRateLimitStore } from './fallback-rate-limit-store.js';
import { SESSION_COOKIE } from './session-cookie.js';

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

const SESSION_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`);

/**
 * Who an API request counts against: its bearer credential (an API key or a token) or its session
 * cookie, hashed so that no secret becomes a key of the shared store, else its client address. The
 * cookie is read from the header: this runs before the cookie plugin's hook.
 */
function callerOf(request: FastifyRequest): string {
  const credential = request.headers.authorization ?? SESSION_COOKIE_VALUE.exec(request.headers.cookie ?? '')?.[1];
  return credential === undefined ? `ip:${request.ip}` : `caller:${createHash('sha256').update(credential).digest('base64url')}`;
}

/**
 * Every `/api/` route without a limit of its own gets RATE_LIMIT_API per minute per caller, named
 * `api` in the RateLimit fields (ADR 0032). Added before the plugin, so that its own route hook
 * sees the limit.
 */
function limitApiRoutes(app: FastifyInstance, perMinute: number): void {
  if (perMinute <= 0) return;
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const config = (route.config ??= {}) as NonNullable<typeof route.config> & { rateLimit?: unknown; rateLimitPolicy?: string };
    if (config.rateLimit !== undefined) return;
    config.rateLimit = { max: perMinute, timeWindow: 60_000, keyGenerator: callerOf };
    config.rateLimitPolicy = 'api';
  });
}

export async function registerRateLimits(app: FastifyInstance, apiPerMinute: number, shared?: SharedRateLimitStore): Promise<void> {
  addRateLimitFields(app);
  limitApiRoutes(app, apiPerMinute);
  await app.register(rateLimit, {
    global: false,
    ...(shared ? { store: fallbackRateLimitStore(shared) } : {}),
    // Should counting fail even so, the request goes through: a Redis outage must never become a 500.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => new LinkforgeError('rate_limit_exceeded',
      `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s.`),
  });
}
