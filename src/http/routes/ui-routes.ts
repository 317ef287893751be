import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Negotiator } from '@fastify/accept-negotiator';
import { problem, PROBLEM_CONTENT_TYPE } from '../problem.js';
import { PRECOMPRESSED_ENCODINGS, type ContentEncoding, type UiBuild, type UiFile } from '../ui-assets.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The recipient pages' stylesheet has a fixed name; the pages link it with its version (`?v=`), so a day is safe. */
const RECIPIENT_STYLESHEET_CACHE = 'public, max-age=86400';
/** These files are compressed at build time: the compression hook must not encode them again. */
const hidden = { schema: { hide: true }, compress: false as const };
const encodings = new Negotiator({ supportedValues: [...PRECOMPRESSED_ENCODINGS], cache: new Map() });

/**
 * The single-page UI (docs/adr/0017-web-ui.md): `/` and `/app/*` answer its index.html, which the
 * browser must revalidate; `/assets/*` are Vite's content-hashed files, cached for a year; `/page.css`
 * styles the redirect failure pages. None of these paths can be a short code: `app` and `assets` are
 * reserved words (ADR 0017) and a code has no dot. Each file goes in the encoding the client accepts
 * best among those the build wrote, with `Vary: Accept-Encoding` so that caches keep them apart.
 */
export function registerUiRoutes(app: FastifyInstance, build: UiBuild | undefined, root?: (req: IncomingMessage, res: ServerResponse) => boolean): void {
  const page = (request: FastifyRequest, reply: FastifyReply) => {
    if (!build) return notBuilt(reply);
    return send(request, reply, build.index, 'no-cache');
  };
  // A custom domain's root redirect (ADR 0036), the same answer the listening server gives before routing.
  app.get('/', hidden, (request, reply) => {
    if (root?.(request.raw, reply.raw)) return reply.hijack();
    return page(request, reply);
  });
  app.get('/app', hidden, page);
  app.get('/app/*', hidden, page);
  app.get('/assets/*', hidden, (request, reply) => {
    const file = build?.assets.get(request.url.split('?')[0]!);
    if (!file) return reply.callNotFound();
    return send(request, reply, file, IMMUTABLE);
  });
  app.get('/page.css', hidden, (request, reply) => {
    if (!build?.recipientStylesheet) return reply.callNotFound();
    return send(request, reply, build.recipientStylesheet, RECIPIENT_STYLESHEET_CACHE);
  });
}

function send(request: FastifyRequest, reply: FastifyReply, file: UiFile, cacheControl: string) {
  reply.header('content-type', file.contentType).header('cache-control', cacheControl);
  if (file.encoded.size === 0) return reply.send(file.body);
  reply.header('vary', 'accept-encoding');
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted ? encodings.negotiate(accepted) as ContentEncoding | null : null;
  const encoded = encoding ? file.encoded.get(encoding) : undefined;
  if (!encoding || !encoded) return reply.send(file.body);
  return reply.header('content-encoding', encoding).send(encoded);
}

function notBuilt(reply: FastifyReply) {
  const body = problem('ui_not_built');
  return reply.status(503).header('content-type', PROBLEM_CONTENT_TYPE).header('retry-after', '60').send(body);
}
