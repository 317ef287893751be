import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LinkforgeError } from '../../core/errors.js';
import { RedirectResponder } from '../redirect-responder.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A password of at most 72 bytes, percent-encoded, with room to spare. */
const FORM_BODY_LIMIT = 4096;

/**
 * `POST /{code}`: what a link's password or confirmation page sends (a form, `password=…` or
 * `confirm=1`), answered by the very same responder and steps as `GET /{code}` (ADR 0031): a 303
 * to the destination, or the page again. Only these routes read form bodies: the API stays JSON only.
 */
export function registerLinkFormRoutes(app: FastifyInstance, responder: RedirectResponder): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
      done(null, new URLSearchParams(body as string));
    });
    const submit = (request: FastifyRequest, reply: FastifyReply) => {
      const code = RedirectResponder.codeOf(request.url);
      if (code === undefined) {
        reply.callNotFound();
        return;
      }
      if (!(request.body instanceof URLSearchParams)) throw new LinkforgeError('media_type_unsupported', `Send the page's form as ${FORM_TYPE}.`);
      const password = request.body.get('password') ?? undefined;
      const confirmed = request.body.get('confirm') === '1';
      reply.hijack();
      responder.respond(code, request.raw, reply.raw, { ...(password === undefined ? {} : { password }), confirmed });
    };
    scope.post('/:code', { schema: { hide: true }, bodyLimit: FORM_BODY_LIMIT }, submit);
    scope.post('/:code/', { schema: { hide: true }, bodyLimit: FORM_BODY_LIMIT }, submit);
  });
}
