import type { onRequestAsyncHookHandler } from 'fastify';
import { LinkforgeError } from '../core/errors.js';
import type { AuthGuards } from './auth.js';

/**
 * onRequest hook of every `/api/admin/*` route: a signed-in site admin passes; anyone else, signed
 * in or not, gets the very 404 an unknown route answers, so the operator's API tells a stranger
 * nothing about itself. It runs before the body and query are validated, so a malformed request
 * from anyone else is that 404 too, never a 400 that would show the route exists.
 */
export function adminOnly(guards: Pick<AuthGuards, 'requireAdmin'>): onRequestAsyncHookHandler {
  return async function adminOrNotFound(request, reply) {
    try {
      await guards.requireAdmin.call(this, request, reply);
    } catch (error) {
      if (!(error instanceof LinkforgeError) || (error.status !== 401 && error.status !== 403)) throw error;
      reply.removeHeader('www-authenticate');
      throw new LinkforgeError('route_not_found', `No route ${request.method} ${request.url.split('?')[0]}.`);
    }
  };
}
