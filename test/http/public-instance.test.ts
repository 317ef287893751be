import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { registerUser as createUserAsAdmin } from '../../src/accounts/register-user.js';
import { createTestApp } from '../support/test-app.js';
import { countLinks, insertLink } from '../support/links.js';
import { postLink } from '../support/owned-links.js';
import { DEFAULT_PASSWORD, uniqueEmail } from '../support/users.js';

const PROBLEM = 'application/problem+json; charset=utf-8';

describe('switches for a public instance', () => {
  test('by default GET /api/instance says registration and anonymous links are allowed', async (context) => {
    const t = await createTestApp(context);
    const res = await t.app.inject({ url: '/api/instance' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { registrationAllowed: true, anonymousLinksAllowed: true, passwordLogin: true, singleSignOn: null });
  });

  test('DISALLOW_REGISTRATION: register answers 403 and creates nothing; a user made by an admin still signs in', async (context) => {
    const t = await createTestApp(context, { DISALLOW_REGISTRATION: 'true' });
    assert.deepEqual((await t.app.inject({ url: '/api/instance' })).json(), { registrationAllowed: false, anonymousLinksAllowed: true, passwordLogin: true, singleSignOn: null });

    const email = uniqueEmail();
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: DEFAULT_PASSWORD } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.headers['content-type'], PROBLEM);
    assert.equal(refused.json().code, 'registration_disabled');
    assert.match(refused.json().detail, /administrator/);
    // Refused before the body is read: a malformed one gets the same answer, not a 400.
    const malformed = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { nope: 1 } });
    assert.equal(malformed.json().code, 'registration_disabled');
    const users = await t.deps.database.db.selectFrom('users').select('id').execute();
    assert.equal(users.length, 0);

    await createUserAsAdmin(t.deps.accounts, { email, password: DEFAULT_PASSWORD });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: DEFAULT_PASSWORD } });
    assert.equal(login.statusCode, 200, login.body);
  });

  test('DISALLOW_ANONYMOUS_LINKS: POST /api/urls/public answers 403 and stores nothing; signed-in users still shorten', async (context) => {
    const t = await createTestApp(context, { DISALLOW_ANONYMOUS_LINKS: 'true' });
    assert.deepEqual((await t.app.inject({ url: '/api/instance' })).json(), { registrationAllowed: true, anonymousLinksAllowed: false, passwordLogin: true, singleSignOn: null });

    const refused = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/' } });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.headers['content-type'], PROBLEM);
    assert.equal(refused.json().code, 'anonymous_links_disabled');
    assert.equal(await countLinks(t.deps), 0);

    const registered = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: uniqueEmail(), password: DEFAULT_PASSWORD } });
    assert.equal(registered.statusCode, 201);
    const owned = await postLink(t.app, registered.json().token, { url: 'https://example.com/' });
    assert.equal(owned.statusCode, 201, owned.body);
  });

  test('a switch that is not true or false is refused at start-up, named', async (context) => {
    await assert.rejects(createTestApp(context, { DISALLOW_REGISTRATION: 'maybe' }), /DISALLOW_REGISTRATION must be true or false/);
  });
});

describe('RATE_LIMIT_REDIRECTS', () => {
  test('off by default: a client follows links without limit', async (context) => {
    const t = await createTestApp(context);
    const link = await insertLink(t.deps);
    for (let i = 0; i < 30; i += 1) assert.equal((await t.app.inject({ url: `/${link.code}` })).statusCode, 301);
  });

  test('on: past N redirects a minute a client gets 429 with Retry-After, other clients do not, and the next minute it may again', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_REDIRECTS: '3' });
    const link = await insertLink(t.deps);
    const follow = (remoteAddress: string, accept = 'application/json') =>
      t.app.inject({ url: `/${link.code}`, remoteAddress, headers: { accept } });
    for (let i = 0; i < 3; i += 1) assert.equal((await follow('203.0.113.1')).statusCode, 301);

    t.clock.advance(20_000);
    const limited = await follow('203.0.113.1');
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['retry-after'], '40');
    assert.equal(limited.headers['content-type'], PROBLEM);
    assert.equal(limited.json().code, 'rate_limit_exceeded');
    assert.equal(limited.headers.location, undefined);
    const page = await follow('203.0.113.1', 'text/html');
    assert.equal(page.statusCode, 429);
    assert.match(page.body, /Too many requests/);

    assert.equal((await follow('203.0.113.2')).statusCode, 301, 'another client has its own count');
    t.clock.advance(40_000);
    assert.equal((await follow('203.0.113.1')).statusCode, 301, 'a new minute, a new count');
  });

  test('with TRUST_PROXY the client is the first X-Forwarded-For address', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_REDIRECTS: '1', TRUST_PROXY: 'true' });
    const link = await insertLink(t.deps);
    const follow = (forwardedFor: string) => t.app.inject({ url: `/${link.code}`, headers: { 'x-forwarded-for': forwardedFor } });
    assert.equal((await follow('198.51.100.7, 10.0.0.1')).statusCode, 301);
    assert.equal((await follow('198.51.100.7')).statusCode, 429);
    assert.equal((await follow('198.51.100.8, 10.0.0.1')).statusCode, 301);
  });
});
