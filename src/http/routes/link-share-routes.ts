import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { StatsDeps } from '../../links/get-global-stats.js';
import { getSharedStats } from '../../links/get-shared-stats.js';
import { findLinkShare, revokeLinkShare, shareLinkStats } from '../../links/share-link-stats.js';
import { JWT_SECURITY, NO_SECURITY, principalOf } from '../auth.js';
import { Id } from '../link-fields.js';
import { rateLimitPerMinute } from '../rate-limit.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';
import { parseQuery, StatsFields, StatsQuery, statsToJson } from './stats-routes.js';

const iso = (ms: number) => new Date(ms).toISOString();

const ShareStatus = Type.Object({
  shared: Type.Boolean({ description: 'Whether the link\'s stats have an active share address.' }),
  createdAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the active share was made; null without one.' }),
  mayShare: Type.Boolean({ description: 'Whether the caller may make or revoke a share (a workspace owner or admin).' }),
});

const CreatedShare = Type.Object({
  token: Type.String({ description: 'The share\'s secret: shown once, stored only hashed. Anyone holding it sees the stats.' }),
  url: Type.String({ description: 'The web page that shows the stats read-only, without signing in.' }),
  statsUrl: Type.String({ description: 'The same stats as JSON (GET, no credentials).' }),
  createdAt: Type.String({ format: 'date-time' }),
});

const SharedStatsJson = Type.Object({
  link: Type.Object({
    shortCode: Type.String(),
    shortUrl: Type.String(),
    destination: Type.String({ description: 'The destination without its query string, fragment or credentials.' }),
  }),
  ...StatsFields,
});

const ShareToken = Type.String({ minLength: 1, maxLength: 100 });

/** ADR 0029: read-only, revocable share addresses of one link's stats, and the public stats they open. */
export function registerLinkShareRoutes(app: FastifyInstance, statsDeps: StatsDeps, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const common = { tags: ['links'], security: JWT_SECURITY, params: Type.Object({ id: Id }) };
  const preHandler = context.guards.requireUser;

  typedApp.get('/api/urls/:id/share', {
    preHandler,
    schema: { ...common, operationId: 'getLinkShare', summary: 'Whether the link\'s stats have a share address', response: { 200: ShareStatus, ...errorResponses(401, 404, 503) } },
  }, async (request) => {
    const { share, mayShare } = await findLinkShare(statsDeps, principalOf(request), request.params);
    return { shared: share !== undefined, createdAt: share ? iso(share.createdAt) : null, mayShare };
  });

  typedApp.post('/api/urls/:id/share', {
    preHandler,
    schema: {
      ...common, operationId: 'shareLinkStats',
      summary: 'Make a read-only share address of the link\'s stats (owner or admin); the link\'s earlier one stops working',
      response: { 201: CreatedShare, ...errorResponses(401, 403, 404, 503) },
    },
  }, async (request, reply) => {
    const { share, token } = await shareLinkStats(statsDeps, principalOf(request), request.params);
    reply.status(201);
    return { token, url: `${context.baseUrl}/app/shared/${token}`, statsUrl: `${context.baseUrl}/api/shared/${token}/stats`, createdAt: iso(share.createdAt) };
  });

  typedApp.delete('/api/urls/:id/share', {
    preHandler,
    schema: {
      ...common, operationId: 'revokeLinkShare', summary: 'Revoke the link\'s share address (owner or admin); it answers 404 from now on',
      response: { 204: Type.Null(), ...errorResponses(401, 403, 404, 503) },
    },
  }, async (request, reply) => {
    await revokeLinkShare(statsDeps, principalOf(request), request.params);
    return reply.status(204).send(null);
  });

  typedApp.get('/api/shared/:token/stats', {
    config: { rateLimit: rateLimitPerMinute(context.rateLimit.anonPerMinute), rateLimitPolicy: 'anon' },
    schema: {
      tags: ['stats'], security: NO_SECURITY, operationId: 'getSharedStats',
      summary: 'A shared link\'s stats, read-only, without credentials: the link\'s stats minus anything private',
      description: 'Viewing records no visit and moves no counter. A wrong or revoked token, or a deleted link, answers 404 `shared_stats_not_found`.',
      params: Type.Object({ token: ShareToken }), querystring: StatsQuery,
      response: { 200: SharedStatsJson, ...errorResponses(400, 404, 429, 503) },
    },
  }, async (request, reply) => {
    const { link, stats } = await getSharedStats(statsDeps, request.params.token, parseQuery(request.query));
    reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    return { link: { shortCode: link.code, shortUrl: `${context.baseUrl}/${link.code}`, destination: link.destination }, ...statsToJson(stats) };
  });
}
