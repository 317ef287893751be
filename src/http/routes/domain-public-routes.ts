import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CHALLENGE_PATH_PREFIX, hostnameOfHeader } from '../../core/custom-domain.js';
import { LinkforgeError } from '../../core/errors.js';
import { answerChallenge } from '../../links/domains/answer-challenge.js';
import type { DomainServices } from '../../links/domains/domain-services.js';
import type { KnownHosts } from '../../links/domains/known-hosts.js';
import { errorResponses } from '../schemas.js';

/**
 * What custom domains answer without credentials (ADR 0036): the HTTP challenge, and the question
 * Caddy's on-demand TLS asks before it gets a certificate for a host (from memory, no database).
 */
export function registerDomainPublicRoutes(app: FastifyInstance, domains: DomainServices, hosts: KnownHosts): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();

  typedApp.get(`${CHALLENGE_PATH_PREFIX}:token`, {
    schema: { hide: true, params: Type.Object({ token: Type.String({ maxLength: 200 }) }) },
  }, async (request, reply) => {
    const token = await answerChallenge(domains.store, request.headers.host, request.params.token);
    if (token === undefined) throw new LinkforgeError('route_not_found');
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(token);
  });

  typedApp.get('/api/domains/allowed', {
    schema: {
      tags: ['domains'], security: [], operationId: 'isDomainAllowed', summary: 'For a TLS terminator\'s on-demand certificates: 200 for this instance\'s host and verified domains, 404 otherwise',
      querystring: Type.Object({ domain: Type.String({ maxLength: 300 }) }),
      response: { 200: Type.Null(), ...errorResponses(400, 404) },
    },
  }, async (request, reply) => {
    const hostname = hostnameOfHeader(request.query.domain);
    if (!domains.ownHosts.includes(hostname) && hosts.find(hostname) === undefined) throw new LinkforgeError('domain_not_found', 'No verified domain has this name.');
    return reply.status(200).send(null);
  });
}
