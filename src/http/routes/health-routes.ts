import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { ReadinessCheck } from '../../core/ports.js';
import { StoreUnavailableError } from '../../core/errors.js';
import { NO_SECURITY } from '../auth.js';
import { errorResponses } from '../schemas.js';

const common = { tags: ['operations'], security: NO_SECURITY };

export function registerHealthRoutes(app: FastifyInstance, readiness: ReadinessCheck): void {
  // A load balancer polls these every few seconds: at `info` their request lines would drown the
  // log, so they log from `warn` (a 503 still shows); at `debug` or finer they log like any route.
  const logLevel = app.log.level === 'info' ? 'warn' : undefined;
  app.get('/healthz', {
    logLevel,
    schema: { ...common, operationId: 'checkLiveness', summary: 'The process is alive', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' }));

  app.get('/readyz', {
    logLevel,
    schema: {
      ...common, operationId: 'checkReadiness', summary: 'The database answers',
      response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errorResponses(503) },
    },
  }, async () => {
    try {
      await readiness.ping();
    } catch (error) {
      // The store's own 503 says why (its files were deleted, say); anything else is generic.
      throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError('The database does not answer; this instance is not ready.');
    }
    return { status: 'ready' };
  });
}
