import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { TestIdentityProvider } from './oidc-provider.js';

/** The callback every test app (BASE_URL http://sho.rt) gives the provider. */
export const TEST_REDIRECT_URI = 'http://sho.rt/auth/oidc/callback';

export interface StartedSignIn {
  readonly authorizationUrl: string;
  /** The `Cookie` header that carries the flow cookie back to the callback. */
  readonly flowCookie: string;
}

/** `GET /auth/oidc/start`: where it sends the browser, and the flow cookie it set. */
export async function startSignIn(app: FastifyInstance, next?: string): Promise<StartedSignIn> {
  const started = await app.inject({ url: `/auth/oidc/start${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}` });
  assert.equal(started.statusCode, 302, started.body);
  const cookie = started.cookies.find((c) => c.name === 'linkforge_oidc');
  assert.ok(cookie, 'no flow cookie');
  return { authorizationUrl: String(started.headers.location), flowCookie: `linkforge_oidc=${cookie.value}` };
}

/** The provider's answer handed to the app's callback, as the browser would, with the flow cookie. */
export function callback(app: FastifyInstance, returned: URL, flowCookie: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return app.inject({ url: `${returned.pathname}${returned.search}`, headers: { cookie: flowCookie, ...headers } });
}

/** A whole sign-in as `login`: start, the provider's login, the callback; answers the callback's response and what it was given. */
export async function signInAs(app: FastifyInstance, provider: TestIdentityProvider, login: string, next?: string) {
  const { authorizationUrl, flowCookie } = await startSignIn(app, next);
  const returned = await provider.logIn(authorizationUrl, login);
  return { response: await callback(app, returned, flowCookie), returned, flowCookie };
}

export function sessionTokenOf(response: LightMyRequestResponse): string | undefined {
  return response.cookies.find((c) => c.name === 'linkforge_session' && c.value !== '')?.value;
}

/** Who the session cookie signs in as (`GET /api/auth/me`). */
export async function profileOf(app: FastifyInstance, response: LightMyRequestResponse): Promise<{ id: number; email: string; role: string }> {
  const token = sessionTokenOf(response);
  assert.ok(token, `no session cookie: ${response.statusCode} ${response.body}`);
  const me = await app.inject({ url: '/api/auth/me', headers: { cookie: `linkforge_session=${token}` } });
  assert.equal(me.statusCode, 200, me.body);
  return (me.json() as { user: { id: number; email: string; role: string } }).user;
}
