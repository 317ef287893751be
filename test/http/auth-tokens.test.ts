import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import type { TestApp } from '../support/test-app.js';
import { createTestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, uniqueEmail, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const SECRET = 'test-secret-for-forgery-tests-0123456789abcdef';
const TTL_SECONDS = 24 * 3600;

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const hmac = (algorithm: 'sha256' | 'sha384' | 'sha512', input: string, secret = SECRET) =>
  createHmac(algorithm, secret).update(input).digest('base64url');

function compact(header: unknown, payload: unknown, sign: (input: string) => string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(input)}`;
}

/** Every authenticated route this part adds, with ids that exist, so only authentication can stop the request. */
function routeTable(victim: RegisteredUser, other: RegisteredUser, keyId: number) {
  const ws = victim.personalWorkspaceId;
  return [
    { method: 'GET', url: '/api/auth/me' },
    { method: 'POST', url: '/api/v1/workspaces', payload: { name: 'forged' } },
    { method: 'GET', url: '/api/v1/workspaces' },
    { method: 'GET', url: `/api/v1/workspaces/${ws}/members` },
    { method: 'POST', url: `/api/v1/workspaces/${ws}/members`, payload: { email: other.user.email, role: 'admin' } },
    { method: 'DELETE', url: `/api/v1/workspaces/${ws}/members/${victim.user.id}` },
    { method: 'POST', url: `/api/v1/workspaces/${ws}/api-keys`, payload: { name: 'forged' } },
    { method: 'GET', url: `/api/v1/workspaces/${ws}/api-keys` },
    { method: 'DELETE', url: `/api/v1/workspaces/${ws}/api-keys/${keyId}` },
  ] as const;
}

async function snapshot(t: TestApp) {
  const db = t.deps.database.db;
  return {
    users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
    workspaces: await db.selectFrom('workspaces').selectAll().orderBy('id').execute(),
    members: await db.selectFrom('workspace_members').selectAll().orderBy('workspace_id').orderBy('user_id').execute(),
    keys: await db.selectFrom('api_keys').select(['id', 'workspace_id', 'name']).orderBy('id').execute(),
  };
}

describe('bearer tokens', () => {
  let t: TestApp;
  let victim: RegisteredUser;
  let other: RegisteredUser;
  let keyId: number;
  const now = () => Math.floor(t.clock.now() / 1000);

  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { JWT_SECRET: SECRET, RATE_LIMIT_AUTH: '0' });
    victim = await registerUser(t.app);
    other = await registerUser(t.app);
    await createApiKey(t.app, victim.token, victim.personalWorkspaceId);
    keyId = Number((await t.deps.database.db.selectFrom('api_keys').select('id').executeTakeFirstOrThrow()).id);
  });

  async function forgeries(): Promise<Record<string, string>> {
    const claims = { sub: String(victim.user.id), iat: now(), exp: now() + 3600 };
    const hs256 = { alg: 'HS256', typ: 'JWT' };
    const [, realPayload, realSignature] = other.token.split('.') as [string, string, string];
    const rsa = await generateKeyPair('RS256');
    const sign = (payload: Record<string, unknown>) => compact(hs256, payload, (input) => hmac('sha256', input));
    return {
      'alg none': compact({ alg: 'none', typ: 'JWT' }, claims, () => ''),
      'alg None': compact({ alg: 'None' }, claims, () => ''),
      'alg none with a signature': compact({ alg: 'none' }, claims, (input) => hmac('sha256', input)),
      'HS512 with the real secret': compact({ alg: 'HS512', typ: 'JWT' }, claims, (input) => hmac('sha512', input)),
      'HS384 with the real secret': compact({ alg: 'HS384' }, claims, (input) => hmac('sha384', input)),
      'RS256 with a random key': await new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey),
      'RS256 header, HMAC signature': compact({ alg: 'RS256', typ: 'JWT' }, claims, (input) => hmac('sha256', input)),
      'empty signature': compact(hs256, claims, () => ''),
      'wrong secret': compact(hs256, claims, (input) => hmac('sha256', input, 'a-different-secret-of-enough-length-000')),
      'tampered payload': `${b64(hs256)}.${b64(claims)}.${realSignature}`,
      'tampered header': `${b64({ alg: 'HS256', typ: 'JWT', kid: '1' })}.${realPayload}.${realSignature}`,
      'duplicate alg, none last': `${b64('{"alg":"HS256","alg":"none"}')}.${b64(claims)}.`,
      'duplicate alg, HS256 last, unsigned': `${b64('{"alg":"none","alg":"HS256"}')}.${b64(claims)}.`,
      'padding on the signature': `${victim.token}=`,
      'padding on the payload': victim.token.replace(/\.([^.]+)\./, '.$1==.'),
      'standard base64 alphabet': victim.token.replace(/-/g, '+').replace(/_/g, '/') + (/[-_]/.test(victim.token) ? '' : '+'),
      'missing exp': sign({ sub: claims.sub, iat: claims.iat }),
      'far-future exp': sign({ ...claims, exp: now() + 10 * 365 * 86_400 }),
      'expired': sign({ sub: claims.sub, iat: now() - 7200, exp: now() - 3600 }),
      'issued in the future': sign({ ...claims, iat: now() + 3600, exp: now() + 7200 }),
      'unknown subject': sign({ ...claims, sub: '999999' }),
      'non-numeric subject': sign({ ...claims, sub: victim.user.email }),
      'two tokens': `${victim.token}.${victim.token}`,
      '10 KB token': `${victim.token.split('.').slice(0, 2).join('.')}${'A'.repeat(10_240)}.${victim.token.split('.')[2]}`,
      'non-ASCII': `${victim.token.slice(0, -3)}äöü`,
    };
  }

  test('every forged, tampered or out-of-policy token gets 401 on every authenticated route, and changes nothing', async () => {
    const routes = routeTable(victim, other, keyId);
    const before = await snapshot(t);
    for (const [name, token] of Object.entries(await forgeries())) {
      for (const route of routes) {
        const response = await t.app.inject({ ...route, headers: bearer(token) });
        assert.equal(response.statusCode, 401, `${name} on ${route.method} ${route.url}: ${response.body}`);
        assert.equal(response.json().code, 'authentication_required');
        assert.equal(response.headers['www-authenticate'], 'Bearer');
      }
    }
    assert.deepEqual(await snapshot(t), before);
  });

  test('the routes of that table accept the real token (so the 401s above come from the forgeries)', async () => {
    const routes = routeTable(victim, other, keyId).filter((r) => r.method === 'GET');
    for (const route of routes) {
      const response = await t.app.inject({ ...route, headers: bearer(victim.token) });
      assert.equal(response.statusCode, 200, `${route.method} ${route.url}`);
    }
  });

  test('a correctly signed token for the right user works: the forgery set is not refused for its claims alone', async () => {
    const token = compact({ alg: 'HS256', typ: 'JWT' }, { sub: String(victim.user.id), iat: now(), exp: now() + 3600 },
      (input) => hmac('sha256', input));
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).statusCode, 200);
  });

  test('tokens expire after JWT_TTL by the app clock', async () => {
    const { token } = await registerUser(t.app);
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    t.clock.advance((TTL_SECONDS - 1) * 1000);
    try {
      assert.equal((await me()).statusCode, 200);
      t.clock.advance(1000);
      const expired = await me();
      assert.equal(expired.statusCode, 401);
      assert.equal(expired.headers['www-authenticate'], 'Bearer');
    } finally {
      t.clock.advance(-TTL_SECONDS * 1000);
    }
  });

  test('a token for a user that no longer exists gets 401', async () => {
    const gone = await registerUser(t.app);
    await t.deps.database.db.deleteFrom('users').where('id', '=', gone.user.id).execute();
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(gone.token) })).statusCode, 401);
  });

  test('tokens are read only from the Authorization header with the Bearer scheme', async () => {
    const attempts = [
      { url: `/api/auth/me?token=${victim.token}` },
      { url: `/api/auth/me?access_token=${victim.token}` },
      { url: '/api/auth/me', headers: { authorization: victim.token } },
      { url: '/api/auth/me', headers: { authorization: `Basic ${victim.token}` } },
      { url: '/api/auth/me', headers: { authorization: 'Bearer' } },
      { url: '/api/auth/me', headers: { authorization: 'Bearer ' } },
      { url: '/api/auth/me', headers: { cookie: `token=${victim.token}` } },
      { url: '/api/auth/me', headers: { 'x-access-token': victim.token } },
    ];
    for (const attempt of attempts) {
      const response = await t.app.inject({ method: 'GET', ...attempt });
      assert.equal(response.statusCode, 401, JSON.stringify(attempt).slice(0, 80));
      assert.equal(response.headers['www-authenticate'], 'Bearer');
    }
    const lower = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${victim.token}` } });
    assert.equal(lower.statusCode, 200, 'the scheme name is case-insensitive (RFC 9110)');
  });

  test('/api/auth/me takes a session token only, not an API key', async () => {
    const key = await createApiKey(t.app, victim.token, victim.personalWorkspaceId);
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(key) })).statusCode, 401);
  });

  test('/api/auth/me lists the user and every workspace they belong to, with roles', async () => {
    const member = await registerUser(t.app, uniqueEmail('member'));
    const shared = await t.app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: bearer(victim.token), payload: { name: 'Team' } });
    const sharedId = shared.json().id;
    await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${sharedId}/members`, headers: bearer(victim.token), payload: { email: member.user.email, role: 'member' } });
    const me = (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(member.token) })).json();
    assert.equal(me.user.id, member.user.id);
    assert.deepEqual(me.workspaces, [
      { id: member.personalWorkspaceId, name: 'Personal', role: 'owner', isPersonal: true },
      { id: sharedId, name: 'Team', role: 'member', isPersonal: false },
    ]);
  });
});
