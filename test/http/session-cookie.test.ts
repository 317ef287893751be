import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, DEFAULT_PASSWORD, registerUser, uniqueEmail } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

interface SignedIn { token: string; csrfToken: string; user: { id: number } }

function sessionCookie(response: LightMyRequestResponse) {
  const cookie = response.cookies.find((c) => c.name === 'linkforge_session');
  assert.ok(cookie, `no session cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return cookie;
}

const withCookie = (token: string, csrf?: string) => ({ cookie: `linkforge_session=${token}`, ...(csrf !== undefined && { 'x-csrf-token': csrf }) });

describe('the session cookie beside the bearer token', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  async function signIn(email: string, headers: Record<string, string> = {}): Promise<SignedIn & { response: LightMyRequestResponse }> {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: { email, password: DEFAULT_PASSWORD } });
    assert.equal(response.statusCode, 200, response.body);
    return { ...(response.json() as SignedIn), response };
  }

  const countLinks = async () => Number((await t.deps.database.db.selectFrom('links').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  test('register and login set an HttpOnly, SameSite=Lax cookie on /api holding the answered token, with a CSRF token in the body', async () => {
    const email = uniqueEmail();
    const registered = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: DEFAULT_PASSWORD } });
    assert.equal(registered.statusCode, 201);
    for (const response of [registered, (await signIn(email)).response]) {
      const body = response.json() as SignedIn;
      const cookie = sessionCookie(response);
      assert.equal(cookie.value, body.token);
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Lax');
      assert.equal(cookie.path, '/api');
      assert.equal(cookie.secure, undefined, 'plain http: not Secure');
      assert.equal(cookie.maxAge, 24 * 3600);
      assert.match(body.csrfToken, /^[A-Za-z0-9_-]{43}$/);
    }
  });

  test('the cookie is Secure when the site is served over https (X-Forwarded-Proto behind TRUST_PROXY)', async () => {
    const proxied = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', TRUST_PROXY: 'true' });
    const { user } = await registerUser(proxied.app);
    const response = await proxied.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'x-forwarded-proto': 'https' }, payload: { email: user.email, password: DEFAULT_PASSWORD } });
    assert.equal(sessionCookie(response).secure, true);
  });

  test('the cookie alone authenticates reads, and /api/auth/me answers the CSRF token for it', async () => {
    const { user } = await registerUser(t.app);
    const { token, csrfToken } = await signIn(user.email);
    const me = await t.app.inject({ url: '/api/auth/me', headers: withCookie(token) });
    assert.equal(me.statusCode, 200, me.body);
    assert.equal((me.json() as { csrfToken?: string }).csrfToken, csrfToken);
    const byBearer = await t.app.inject({ url: '/api/auth/me', headers: bearer(token) });
    assert.equal((byBearer.json() as { csrfToken?: string }).csrfToken, undefined, 'a bearer client has no use for it');
  });

  test('a write with the cookie needs its CSRF token: missing or another session\'s is a 403 that changes nothing', async () => {
    const { user } = await registerUser(t.app);
    const { token, csrfToken } = await signIn(user.email);
    const other = await signIn((await registerUser(t.app)).user.email);
    const before = await countLinks();
    for (const csrf of [undefined, '', other.csrfToken, `${csrfToken}x`]) {
      const refused = await t.app.inject({ method: 'POST', url: '/api/urls', headers: withCookie(token, csrf), payload: { url: 'https://example.com/csrf' } });
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal((refused.json() as { code: string }).code, 'csrf_token_invalid');
    }
    assert.equal(await countLinks(), before);
    const made = await t.app.inject({ method: 'POST', url: '/api/urls', headers: withCookie(token, csrfToken), payload: { url: 'https://example.com/csrf' } });
    assert.equal(made.statusCode, 201, made.body);
  });

  test('bearer tokens and API keys work unchanged, with no CSRF token, and the header wins over a cookie', async () => {
    const owner = await registerUser(t.app);
    const key = await createApiKey(t.app, owner.token, owner.personalWorkspaceId);
    const byBearer = await t.app.inject({ method: 'POST', url: '/api/urls', headers: bearer(owner.token), payload: { url: 'https://example.com/bearer' } });
    assert.equal(byBearer.statusCode, 201, byBearer.body);
    const byKey = await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${owner.personalWorkspaceId}/links`, headers: bearer(key), payload: { original_url: 'https://example.com/key' } });
    assert.equal(byKey.statusCode, 201, byKey.body);
    const both = await t.app.inject({ method: 'POST', url: '/api/urls', headers: { ...bearer(owner.token), cookie: 'linkforge_session=garbage' }, payload: { url: 'https://example.com/both' } });
    assert.equal(both.statusCode, 201, both.body);
  });

  test('sign-out ends every session of the user (cookie and bearer tokens, other browsers too), clears the cookie, and leaves API keys working', async () => {
    const owner = await registerUser(t.app);
    const key = await createApiKey(t.app, owner.token, owner.personalWorkspaceId);
    const laptop = await signIn(owner.user.email);
    const phone = await signIn(owner.user.email);
    const bystander = await registerUser(t.app);

    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: withCookie(laptop.token, laptop.csrfToken) });
    assert.equal(out.statusCode, 204, out.body);
    const cleared = sessionCookie(out);
    assert.equal(cleared.value, '');
    assert.equal(cleared.path, '/api');

    for (const headers of [withCookie(laptop.token), withCookie(phone.token), bearer(phone.token), bearer(owner.token)]) {
      const refused = await t.app.inject({ url: '/api/auth/me', headers });
      assert.equal(refused.statusCode, 401, refused.body);
      assert.match((refused.json() as { detail: string }).detail, /signed out/);
    }
    const byCookie = await t.app.inject({ url: '/api/auth/me', headers: withCookie(phone.token) });
    assert.equal(sessionCookie(byCookie).value, '', 'a cookie that no longer works is dropped');
    assert.equal((await t.app.inject({ url: '/api/v1/workspaces', headers: bearer(key) })).statusCode, 200, 'API keys are not sessions');
    assert.equal((await t.app.inject({ url: '/api/auth/me', headers: bearer(bystander.token) })).statusCode, 200, 'another user is untouched');

    const again = await signIn(owner.user.email);
    assert.equal((await t.app.inject({ url: '/api/auth/me', headers: withCookie(again.token) })).statusCode, 200, 'signing in again works');
  });

  test('sign-out with the cookie needs the CSRF token too, and without any credential is a 401', async () => {
    const { user } = await registerUser(t.app);
    const session = await signIn(user.email);
    const forged = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: withCookie(session.token) });
    assert.equal(forged.statusCode, 403);
    assert.equal((await t.app.inject({ url: '/api/auth/me', headers: withCookie(session.token) })).statusCode, 200, 'still signed in');
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode, 401);
  });
});
