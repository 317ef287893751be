import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from '../logging/request-id.js';

/** Every answer names its request id (the one on its log lines), so a client can quote it. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
