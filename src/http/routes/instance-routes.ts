import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { NO_SECURITY } from '../auth.js';
import type { InstancePolicy } from '../route-context.js';

const InstanceJson = Type.Object({
  registrationAllowed: Type.Boolean({ description: 'False when the instance is set with DISALLOW_REGISTRATION: accounts are made by an administrator.' }),
  anonymousLinksAllowed: Type.Boolean({ description: 'False when the instance is set with DISALLOW_ANONYMOUS_LINKS: only signed-in users shorten.' }),
}, { additionalProperties: false });

/** `GET /api/instance`: what this instance lets strangers do, so that the web UI shows only the forms that work. */
export function registerInstanceRoutes(app: FastifyInstance, instance: InstancePolicy): void {
  const answer = { registrationAllowed: instance.registrationAllowed, anonymousLinksAllowed: instance.anonymousLinksAllowed };
  app.get('/api/instance', {
    schema: {
      operationId: 'getInstance',
      summary: 'What this instance allows without an account',
      tags: ['operations'],
      security: NO_SECURITY,
      response: { 200: InstanceJson },
    },
  }, async () => answer);
}
