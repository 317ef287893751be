import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { signInWithOidc } from '../../accounts/sign-in-with-oidc.js';
import type { SingleSignOnServices } from '../../accounts/single-sign-on-services.js';
import { LinkforgeError } from '../../core/errors.js';
import { prefersHtml } from '../accept.js';
import { OidcFlowCookie } from '../oidc-flow-cookie.js';
import { rateLimitPerMinute } from '../rate-limit.js';
import { HTML_CONTENT_TYPE, htmlPage } from '../redirect-pages.js';
import type { RouteContext } from '../route-context.js';
import { setSessionCookie } from '../session-cookie.js';

export const OIDC_START_PATH = '/auth/oidc/start';
export const OIDC_CALLBACK_PATH = '/auth/oidc/callback';
const DASHBOARD = '/app/dashboard';

/** Where a sign-in may return to: a page of the web UI, never another site (as web/src/return-path.ts). */
const returnPath = (next: string | undefined) => (next && /^\/(app\/[\w/-]*(\?[^\s#]*)?)?$/.test(next) ? next : DASHBOARD);

const StartQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2048 })) });
// Providers add their own parameters (iss, session_state, scope…): openid-client reads and checks the whole query.
const CallbackQuery = Type.Object({}, { additionalProperties: true });

/**
 * Sign-in through the OpenID Connect provider (ADR 0034), for browsers: `/auth/oidc/start` sends
 * them to the provider, the callback signs them in exactly as the password sign-in does (the
 * session cookie) and sends them on to the dashboard. A refusal is a problem detail, or for a
 * browser a page with the same status and words and a way back to the sign-in page.
 */
export function registerOidcRoutes(app: FastifyInstance, sso: SingleSignOnServices, context: RouteContext, options: { stylesheet?: string }): void {
  const typedApp = app.withTypeProvider<TypeBoxTypeProvider>();
  const rateLimit = rateLimitPerMinute(context.rateLimit.authPerMinute);
  const flows = new OidcFlowCookie({ key: sso.accounts.tokens.keyFor('oidc-flow'), baseUrl: context.baseUrl });
  const redirectUri = `${context.baseUrl}${OIDC_CALLBACK_PATH}`;

  typedApp.get(OIDC_START_PATH, { config: { rateLimit }, schema: { hide: true, querystring: StartQuery } }, async (request, reply) => {
    try {
      const { url, checks } = await sso.relyingParty.startSignIn(redirectUri);
      flows.set(request, reply, { ...checks, next: returnPath(request.query.next) }, context.clock.now());
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    } catch (error) {
      return refusal(request, reply, error, options.stylesheet);
    }
  });

  typedApp.get(OIDC_CALLBACK_PATH, { config: { rateLimit }, schema: { hide: true, querystring: CallbackQuery } }, async (request, reply) => {
    try {
      const flow = flows.take(request, reply, context.clock.now());
      if (!flow) throw new LinkforgeError('sso_callback_invalid', 'No sign-in was started in this browser in the last 10 minutes; start signing in again.');
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const claims = await sso.relyingParty.finishSignIn(new URL(`${redirectUri}${query}`), redirectUri, flow);
      const { token } = await signInWithOidc(sso, claims);
      setSessionCookie(request, reply, token, { baseUrl: context.baseUrl, maxAgeSeconds: sso.accounts.tokens.lifetimeSeconds });
      return reply.header('cache-control', 'no-store').redirect(flow.next, 303);
    } catch (error) {
      return refusal(request, reply, error, options.stylesheet);
    }
  });
}

/** A browser gets a page; anything else the problem detail, through the error handler. */
function refusal(request: FastifyRequest, reply: FastifyReply, error: unknown, stylesheet: string | undefined) {
  if (!(error instanceof LinkforgeError) || !prefersHtml(request.headers.accept)) throw error;
  if (error.status === 503) reply.header('retry-after', '5');
  const again = '<a href="/app/login">Back to the sign-in page</a>';
  return reply.status(error.status).header('cache-control', 'no-store').type(HTML_CONTENT_TYPE)
    .send(htmlPage(error.status, error.title, error.message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`), again, stylesheet));
}
