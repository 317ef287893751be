import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { startTestIdentityProvider, type TestIdentityProvider } from '../support/oidc-provider.js';
import { callback, profileOf, sessionTokenOf, signInAs, startSignIn, TEST_REDIRECT_URI } from '../support/oidc-sign-in.js';
import { suiteScope } from '../support/teardown.js';
import { registerUser, uniqueEmail } from '../support/users.js';

const PROBLEM = 'application/problem+json; charset=utf-8';
let logins = 0;
const uniqueLogin = () => `person-${process.pid}-${++logins}`;

function assertProblem(response: LightMyRequestResponse, status: number, code: string): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.headers['content-type'], PROBLEM);
  assert.equal(response.json().code, code);
  assert.equal(sessionTokenOf(response), undefined, 'no session on a refusal');
}

describe('sign-in with an OpenID Connect provider', () => {
  const suite = suiteScope();
  let provider: TestIdentityProvider;
  let t: TestApp;
  before(async () => {
    provider = await startTestIdentityProvider(suite, { redirectUri: TEST_REDIRECT_URI });
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', ...provider.env, OIDC_NAME: 'Acme ID' });
  });

  const countUsers = async () => (await t.deps.database.db.selectFrom('users').select('id').execute()).length;
  const identitiesOf = (userId: number) => t.deps.database.db.selectFrom('user_identities').select(['issuer', 'subject']).where('user_id', '=', userId).execute();

  test('GET /api/instance names the provider and where its button leads', async () => {
    const instance = await t.app.inject({ url: '/api/instance' });
    assert.deepEqual(instance.json(), {
      registrationAllowed: true, anonymousLinksAllowed: true, passwordLogin: true, singleSignOn: { name: 'Acme ID', startUrl: '/auth/oidc/start' },
    });
  });

  test('start sends the browser to the provider with PKCE (S256), state and nonce, and keeps them in a signed HttpOnly cookie on /auth/oidc', async () => {
    const started = await t.app.inject({ url: '/auth/oidc/start' });
    assert.equal(started.statusCode, 302);
    const location = new URL(String(started.headers.location));
    assert.equal(location.origin, provider.issuer);
    for (const name of ['state', 'nonce', 'code_challenge']) assert.match(location.searchParams.get(name) ?? '', /^[\w-]{43,}$/, name);
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(location.searchParams.get('redirect_uri'), TEST_REDIRECT_URI);
    const cookie = started.cookies.find((c) => c.name === 'linkforge_oidc');
    assert.ok(cookie);
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.path, '/auth/oidc');
    assert.equal(cookie.maxAge, 600);
    assert.doesNotMatch(cookie.value, new RegExp(location.searchParams.get('code_challenge')!), 'the challenge, not the verifier, goes to the provider');
  });

  test('a new verified email gets an account, signed in with the session cookie, and lands on the dashboard; its identity is kept', async () => {
    const login = uniqueLogin();
    const email = uniqueEmail('sso');
    provider.setAccount(login, { email, email_verified: true });
    const { response } = await signInAs(t.app, provider, login);
    assert.equal(response.statusCode, 303, response.body);
    assert.equal(response.headers.location, '/app/dashboard');
    assert.equal(response.cookies.find((c) => c.name === 'linkforge_oidc')?.value, '', 'the flow cookie is cleared');
    const session = response.cookies.find((c) => c.name === 'linkforge_session')!;
    assert.equal(session.httpOnly, true);
    assert.equal(session.path, '/api');
    const user = await profileOf(t.app, response);
    assert.equal(user.email, email);
    assert.equal(user.role, 'user');
    assert.deepEqual(await identitiesOf(user.id), [{ issuer: provider.issuer, subject: login }]);
  });

  test('the next sign-in finds the account by its subject, even after the email changed at the provider', async () => {
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('before'), email_verified: true });
    const first = await profileOf(t.app, (await signInAs(t.app, provider, login)).response);
    provider.setAccount(login, { email: uniqueEmail('after'), email_verified: true });
    const users = await countUsers();
    const second = await profileOf(t.app, (await signInAs(t.app, provider, login)).response);
    assert.equal(second.id, first.id);
    assert.equal(await countUsers(), users);
  });

  test('an account registered with a password is the one its verified email signs in to', async () => {
    const { user } = await registerUser(t.app);
    const login = uniqueLogin();
    provider.setAccount(login, { email: user.email.toUpperCase(), email_verified: true });
    assert.equal((await profileOf(t.app, (await signInAs(t.app, provider, login)).response)).id, user.id);
  });

  test('an email the provider did not verify is refused with 403 sso_email_unverified, and no account or link is made', async () => {
    const users = await countUsers();
    for (const email_verified of [false, 'true', undefined]) {
      const login = uniqueLogin();
      provider.setAccount(login, { email: uniqueEmail('unverified'), email_verified });
      assertProblem((await signInAs(t.app, provider, login)).response, 403, 'sso_email_unverified');
    }
    assert.equal(await countUsers(), users);
  });

  test('a browser is refused with a page of the same status that leads back to the sign-in page', async () => {
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('page'), email_verified: false });
    const { authorizationUrl, flowCookie } = await startSignIn(t.app);
    const page = await callback(t.app, await provider.logIn(authorizationUrl, login), flowCookie, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    assert.equal(page.statusCode, 403);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /Email not verified/);
    assert.match(page.body, /href="\/app\/login"/);
    assert.ok(page.headers['content-security-policy']);
  });

  test('an identity whose email belongs to an account linked to another subject is refused with 409', async () => {
    const email = uniqueEmail('taken');
    const owner = uniqueLogin();
    provider.setAccount(owner, { email, email_verified: true });
    const ownerId = (await profileOf(t.app, (await signInAs(t.app, provider, owner)).response)).id;
    const other = uniqueLogin();
    provider.setAccount(other, { email, email_verified: true });
    assertProblem((await signInAs(t.app, provider, other)).response, 409, 'sso_account_linked_elsewhere');
    assert.deepEqual(await identitiesOf(ownerId), [{ issuer: provider.issuer, subject: owner }]);
  });

  test('a callback with another state than the one this browser started with is refused with 400', async () => {
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('state'), email_verified: true });
    const { authorizationUrl, flowCookie } = await startSignIn(t.app);
    const returned = await provider.logIn(authorizationUrl, login);
    const users = await countUsers();
    returned.searchParams.set('state', 'an-attacker-chose-this-state-value-0000000000');
    assertProblem(await callback(t.app, returned, flowCookie), 400, 'sso_callback_invalid');
    assert.equal(await countUsers(), users);
  });

  test('a callback without the flow cookie, or with a forged one, is refused with 400', async () => {
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('nocookie'), email_verified: true });
    const { authorizationUrl, flowCookie } = await startSignIn(t.app);
    const returned = await provider.logIn(authorizationUrl, login);
    assertProblem(await callback(t.app, returned, ''), 400, 'sso_callback_invalid');
    const [payload = '', mac = ''] = flowCookie.split('=')[1]!.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), next: '/app/admin' })).toString('base64url');
    assertProblem(await callback(t.app, returned, `linkforge_oidc=${forged}.${mac}`), 400, 'sso_callback_invalid');
  });

  test('a replayed authorization code is refused with 400: the provider takes each code once', async () => {
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('replay'), email_verified: true });
    const { response, returned, flowCookie } = await signInAs(t.app, provider, login);
    assert.equal(response.statusCode, 303, response.body);
    assertProblem(await callback(t.app, returned, flowCookie), 400, 'sso_callback_invalid');
  });

  test('a callback naming another issuer (a mix-up) is refused with 400', async () => {
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('mixup'), email_verified: true });
    const { authorizationUrl, flowCookie } = await startSignIn(t.app);
    const returned = await provider.logIn(authorizationUrl, login);
    assert.equal(returned.searchParams.get('iss'), provider.issuer);
    returned.searchParams.set('iss', 'https://evil.example');
    assertProblem(await callback(t.app, returned, flowCookie), 400, 'sso_callback_invalid');
  });

  test('a sign-in cancelled at the provider is refused with 400 naming what the provider said', async () => {
    const { authorizationUrl, flowCookie } = await startSignIn(t.app);
    const returned = await provider.logIn(authorizationUrl, '');
    assert.equal(returned.searchParams.get('error'), 'access_denied');
    const refused = await callback(t.app, returned, flowCookie);
    assertProblem(refused, 400, 'sso_callback_invalid');
    assert.match(refused.json().detail, /refused the sign-in \(access_denied: the person cancelled\)/);
  });

  test('?next= returns to a page of the UI after signing in, never to another site', async () => {
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('next'), email_verified: true });
    assert.equal((await signInAs(t.app, provider, login, '/app/workspaces')).response.headers.location, '/app/workspaces');
    for (const next of ['https://evil.example/', '//evil.example/app/', '/api/auth/me']) {
      assert.equal((await signInAs(t.app, provider, login, next)).response.headers.location, '/app/dashboard', next);
    }
  });

  test('a disabled account is refused with 403 account_disabled', async () => {
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('disabled'), email_verified: true });
    const { id } = await profileOf(t.app, (await signInAs(t.app, provider, login)).response);
    await t.deps.database.db.updateTable('users').set({ disabled_at: 1 }).where('id', '=', id).execute();
    assertProblem((await signInAs(t.app, provider, login)).response, 403, 'account_disabled');
  });
});
