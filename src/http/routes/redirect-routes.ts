import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { Type } from '@sinclair/typebox';
import { RedirectResponder } from '../redirect-responder.js';

/**
 * `GET|HEAD /{code}` as a Fastify route. A listening server answers these paths before routing
 * (see app.ts); this route serves `app.inject` and any path the fast path passes on, through the
 * very same responder.
 */
export function registerRedirectRoutes(app: FastifyInstance, responder: RedirectResponder): void {
  const redirect: RouteHandlerMethod = (request, reply) => {
    const code = RedirectResponder.codeOf(request.url);
    if (code === undefined) {
      // Reserved words and malformed codes are not short links: the ordinary 404 applies.
      reply.callNotFound();
      return;
    }
    reply.hijack();
    responder.respond(code, request.raw, reply.raw);
  };
  app.get('/:code', {
    schema: {
      summary: 'Follow a short link',
      description: '301 for a permanent link, 302 for an expiring one, 404 unknown, 410 expired or deleted, 503 when the database cannot be reached.',
      tags: ['redirect'],
      params: Type.Object({ code: Type.String() }),
    },
  }, redirect);
  // `/{code}/` is the same link, as pasted with a trailing slash; documented once, under `/{code}`.
  app.get('/:code/', { schema: { hide: true } }, redirect);
}
