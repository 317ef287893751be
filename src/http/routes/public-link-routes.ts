import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { createAnonymousLink, type CreateAnonymousLinkDeps } from '../../links/create-anonymous-link.js';
import { NO_SECURITY } from '../auth.js';
import { LinkJson, linkToJson } from '../link-json.js';
import { errorResponses } from '../schemas.js';
import { rateLimitPerMinute } from '../rate-limit.js';
import { refuseUnless, type RouteContext } from '../route-context.js';

const CreatePublicLinkBody = Type.Object({
  url: Type.String({ description: 'The absolute http(s) URL to shorten.' }),
}, { additionalProperties: false });

const CreatedPublicLink = Type.Composite([LinkJson, Type.Object({
  claimToken: Type.String({ description: 'Proves you created the link; send it to /api/urls/sync after signing in. Shown once.' }),
})]);

export function registerPublicLinkRoutes(app: FastifyInstance, anonymous: CreateAnonymousLinkDeps, context: RouteContext): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  typedApp.post('/api/urls/public', {
    config: { rateLimit: rateLimitPerMinute(context.rateLimit.anonPerMinute), rateLimitPolicy: 'anon' },
    onRequest: refuseUnless(context.instance.anonymousLinksAllowed, 'anonymous_links_disabled'),
    schema: {
      operationId: 'createPublicLink',
      summary: 'Shorten a URL anonymously; the link expires ANON_TTL after creation, at its `expiresAt`',
      description: 'Answers 403 `anonymous_links_disabled` when the instance is set with DISALLOW_ANONYMOUS_LINKS.',
      tags: ['links'],
      security: NO_SECURITY,
      body: CreatePublicLinkBody,
      response: { 201: CreatedPublicLink, ...errorResponses(400, 403, 413, 429, 500, 503) },
    },
  }, async (request, reply) => {
    const { url } = request.body;
    const { link, claimToken } = await createAnonymousLink(anonymous, url);
    reply.status(201).header('location', `/api/urls/${link.id}`);
    return { ...linkToJson(link, context.urls, context.clock.now(), []), claimToken };
  });
}
