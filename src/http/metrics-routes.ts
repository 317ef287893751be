import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { HttpMetrics } from '../core/metrics-ports.js';
import { LinkforgeError } from '../core/errors.js';

/** The label of requests no route matched: one value, whatever the URL (bounded cardinality). */
export const UNMATCHED_ROUTE = 'unmatched';

/** The scheme's name is case-insensitive (RFC 9110, section 11.1); the token is the rest, trimmed. */
const BEARER = /^bearer (.*)$/is;

/** Compared as SHA-256 digests: equal lengths for timingSafeEqual, and no early exit on the first differing byte. */
function tokenMatches(header: string | undefined, expected: string): boolean {
  const presented = (typeof header === 'string' ? BEARER.exec(header)?.[1]?.trim() : undefined) ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected)) && presented !== '';
}

/**
 * Every request Fastify answers is counted under its route pattern (`/api/urls/:id`), never its URL;
 * `GET /metrics` serves the registry, behind `METRICS_TOKEN` when one is set (ADR 0018). Redirects
 * are counted by the responder: its Fastify route (used by `app.inject`) is skipped here.
 */
export function registerMetrics(app: FastifyInstance, metrics: HttpMetrics, token: string | undefined): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    if (route !== '/:code' && route !== '/:code/') {
      metrics.requestAnswered(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token !== undefined && !tokenMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new LinkforgeError('authentication_required', 'Send `Authorization: Bearer <METRICS_TOKEN>`.');
    }
    const { contentType, text } = await metrics.scrape();
    return reply.header('cache-control', 'no-store').type(contentType).send(text);
  });
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}
