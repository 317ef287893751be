import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { NO_SECURITY } from '../auth.js';
import type { InstancePolicy } from '../route-context.js';
import { OIDC_START_PATH } from './oidc-routes.js';

const InstanceJson = Type.Object({
  registrationAllowed: Type.Boolean({ description: 'False when the instance is set with DISALLOW_REGISTRATION or PASSWORD_LOGIN=false: accounts are made by an administrator, or by signing in with single sign-on.' }),
  anonymousLinksAllowed: Type.Boolean({ description: 'False when the instance is set with DISALLOW_ANONYMOUS_LINKS: only signed-in users shorten.' }),
  passwordLogin: Type.Boolean({ description: 'False when the instance is set with PASSWORD_LOGIN=false: sign-in goes through single sign-on only, and registration is closed.' }),
  singleSignOn: Type.Union([
    Type.Object({
      name: Type.String({ description: 'What the button says: "Sign in with {name}".' }),
      startUrl: Type.String({ description: 'Where the button leads (a browser page, not an API call); `?next=/app/…` returns there afterwards.' }),
    }, { additionalProperties: false }),
    Type.Null(),
  ], { description: 'The OpenID Connect provider this instance signs in with, or null when none is configured.' }),
}, { additionalProperties: false });

/** `GET /api/instance`: what this instance lets strangers do, so that the web UI shows only the forms that work. */
export function registerInstanceRoutes(app: FastifyInstance, instance: InstancePolicy): void {
  const answer = {
    registrationAllowed: instance.registrationAllowed,
    anonymousLinksAllowed: instance.anonymousLinksAllowed,
    passwordLogin: instance.passwordLogin,
    singleSignOn: instance.singleSignOnName === undefined ? null : { name: instance.singleSignOnName, startUrl: OIDC_START_PATH },
  };
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
