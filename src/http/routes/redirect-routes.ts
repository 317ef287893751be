import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { RedirectResponder } from '../redirect-responder.js';
import { redirectRouteSchema, type RedirectStatuses } from '../redirect-schema.js';

/**
 * `GET|HEAD /{code}` as a Fastify route. A listening server answers these paths before routing
 * (see app.ts); this route serves `app.inject` and any path the fast path passes on, through the
 * very same responder.
 */
export function registerRedirectRoutes(app: FastifyInstance, responder: RedirectResponder, statuses: RedirectStatuses): void {
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
    schema: redirectRouteSchema(statuses),
    config: { swagger: { exposeHeadRoute: true } },
    compress: false,
  }, redirect);
  // `/{code}/` is the same link, as pasted with a trailing slash; documented once, under `/{code}`.
  app.get('/:code/', { schema: { hide: true }, compress: false }, redirect);
}
