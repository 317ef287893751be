import type { FastifyInstance } from 'fastify';
import type { LinkStore } from '../../core/ports.js';
import { StoreUnavailableError } from '../../core/errors.js';

export function registerHealthRoutes(app: FastifyInstance, store: LinkStore): void {
  app.get('/healthz', { schema: { summary: 'The process is alive', tags: ['operations'] } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { summary: 'The database answers', tags: ['operations'] } }, async () => {
    try {
      await store.ping();
    } catch {
      throw new StoreUnavailableError('The database does not answer; this instance is not ready.');
    }
    return { status: 'ready' };
  });
}
