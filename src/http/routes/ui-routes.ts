import type { FastifyInstance, FastifyReply } from 'fastify';
import { problem, PROBLEM_CONTENT_TYPE } from '../problem.js';
import type { UiBuild, UiFile } from '../ui-assets.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const hidden = { schema: { hide: true } };

/**
 * The single-page UI (docs/adr/0017-web-ui.md): `/` and `/app/*` answer its index.html, which the
 * browser must revalidate; `/assets/*` are Vite's content-hashed files, cached for a year. None of
 * these paths can be a short code: `app` and `assets` are reserved words (ADR 0017).
 */
export function registerUiRoutes(app: FastifyInstance, build: UiBuild | undefined): void {
  const page = (reply: FastifyReply) => {
    if (!build) return notBuilt(reply);
    return send(reply, build.index, 'no-cache');
  };
  app.get('/', hidden, (_request, reply) => page(reply));
  app.get('/app', hidden, (_request, reply) => page(reply));
  app.get('/app/*', hidden, (_request, reply) => page(reply));
  app.get('/assets/*', hidden, (request, reply) => {
    const file = build?.assets.get(request.url.split('?')[0]!);
    if (!file) return reply.callNotFound();
    return send(reply, file, IMMUTABLE);
  });
}

function send(reply: FastifyReply, file: UiFile, cacheControl: string) {
  return reply.header('content-type', file.contentType).header('cache-control', cacheControl).send(file.body);
}

function notBuilt(reply: FastifyReply) {
  const body = problem('ui_not_built');
  return reply.status(503).header('content-type', PROBLEM_CONTENT_TYPE).header('retry-after', '60').send(body);
}
