import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../support/test-app.js';
import { startTestIdentityProvider, type TestIdentityProvider } from '../support/oidc-provider.js';
import { profileOf, signInAs, TEST_REDIRECT_URI } from '../support/oidc-sign-in.js';
import { suiteScope } from '../support/teardown.js';
import { DEFAULT_PASSWORD, uniqueEmail } from '../support/users.js';
import { freePort } from '../support/free-port.js';

let logins = 0;
const uniqueLogin = () => `settings-${process.pid}-${++logins}`;

describe('the settings of sign-in: admin groups, closed registration, password sign-in off', () => {
  const suite = suiteScope();
  let provider: TestIdentityProvider;
  before(async () => { provider = await startTestIdentityProvider(suite, { redirectUri: TEST_REDIRECT_URI }); });

  test('OIDC_ADMIN_GROUPS grants the admin role at a sign-in with the group, and takes it back at one without', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0', ...provider.env, OIDC_ADMIN_GROUPS: 'ops, linkforge-admins' });
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('admin'), email_verified: true, groups: ['staff', 'linkforge-admins'] });
    const admin = await signInAs(t.app, provider, login);
    assert.equal((await profileOf(t.app, admin.response)).role, 'admin');
    const operatorPage = await t.app.inject({ url: '/api/admin/overview', headers: { cookie: `linkforge_session=${admin.response.cookies.find((c) => c.name === 'linkforge_session')!.value}` } });
    assert.equal(operatorPage.statusCode, 200, operatorPage.body);

    provider.setAccount(login, { email: uniqueEmail('admin'), email_verified: true, groups: ['staff'] });
    const demoted = await signInAs(t.app, provider, login);
    assert.equal((await profileOf(t.app, demoted.response)).role, 'user');
    const row = await t.deps.database.db.selectFrom('users').select('role').where('id', '=', (await profileOf(t.app, demoted.response)).id).executeTakeFirstOrThrow();
    assert.equal(row.role, 'user');
  });

  test('without OIDC_ADMIN_GROUPS the groups claim changes no role', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0', ...provider.env });
    const login = uniqueLogin();
    provider.setAccount(login, { email: uniqueEmail('plain'), email_verified: true, groups: ['linkforge-admins'] });
    assert.equal((await profileOf(t.app, (await signInAs(t.app, provider, login)).response)).role, 'user');
  });

  test('DISALLOW_REGISTRATION closes the password form, not single sign-on: a verified identity still gets an account', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0', DISALLOW_REGISTRATION: 'true', ...provider.env });
    const login = uniqueLogin();
    const email = uniqueEmail('closed');
    provider.setAccount(login, { email, email_verified: true });
    assert.equal((await profileOf(t.app, (await signInAs(t.app, provider, login)).response)).email, email);
  });

  test('PASSWORD_LOGIN=false: password sign-in and registration answer 403 password_login_disabled; single sign-on works', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0', PASSWORD_LOGIN: 'false', ...provider.env });
    const email = uniqueEmail('nopassword');
    const registered = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: DEFAULT_PASSWORD } });
    assert.equal(registered.statusCode, 403);
    assert.equal(registered.json().code, 'password_login_disabled');
    assert.equal((await t.deps.database.db.selectFrom('users').select('id').execute()).length, 0);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEFAULT_PASSWORD } });
    assert.equal(login.statusCode, 403);
    assert.equal(login.json().code, 'password_login_disabled');
    assert.match(login.json().detail, /single sign-on/);
    assert.deepEqual((await t.app.inject({ url: '/api/instance' })).json(), {
      registrationAllowed: false, anonymousLinksAllowed: true, passwordLogin: false, singleSignOn: { name: 'single sign-on', startUrl: '/auth/oidc/start' },
    });
    const person = uniqueLogin();
    provider.setAccount(person, { email, email_verified: true });
    assert.equal((await profileOf(t.app, (await signInAs(t.app, provider, person)).response)).email, email);
  });

  test('a provider whose discovery names another issuer than OIDC_ISSUER: start answers 503 with Retry-After, and nobody is sent there', async (context) => {
    const port = await freePort();
    const impostor = await startTestIdentityProvider(context, { redirectUri: TEST_REDIRECT_URI, port, issuerName: (p) => `http://localhost:${p}` });
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0', ...impostor.env, OIDC_ISSUER: `http://127.0.0.1:${port}` });
    const started = await t.app.inject({ url: '/auth/oidc/start' });
    assert.equal(started.statusCode, 503, started.body);
    assert.equal(started.json().code, 'sso_provider_unavailable');
    assert.equal(started.headers['retry-after'], '5');
    assert.equal(started.headers.location, undefined);
  });

  test('a provider that cannot be reached: start answers 503 with Retry-After', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0', ...provider.env, OIDC_ISSUER: `http://127.0.0.1:${await freePort()}` });
    const started = await t.app.inject({ url: '/auth/oidc/start' });
    assert.equal(started.statusCode, 503, started.body);
    assert.equal(started.json().code, 'sso_provider_unavailable');
    assert.equal(started.headers['retry-after'], '5');
  });

  test('without OIDC_* the routes do not exist', async (context) => {
    const t = await createTestApp(context);
    assert.equal((await t.app.inject({ url: '/auth/oidc/start' })).statusCode, 404);
    assert.equal((await t.app.inject({ url: '/auth/oidc/callback?code=x&state=y' })).statusCode, 404);
  });
});
