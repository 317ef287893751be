import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcrypt';
import { CountingHashing } from '../support/counting-hashing.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, DEFAULT_PASSWORD, registerUser, uniqueEmail } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const register = (t: TestApp, payload: unknown, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/register', payload: payload as object, remoteAddress });
const login = (t: TestApp, payload: unknown, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: payload as object, remoteAddress });

describe('register and login', () => {
  let t: TestApp;
  const hashing = new CountingHashing();
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', ADMIN_EMAILS: 'Boss@Example.test, other@example.test' }, { passwordHashing: hashing }); });
  after(() => t.close());

  test('register answers 201 with a token and the user, never the hash, and makes a personal workspace owned by the user', async () => {
    const email = uniqueEmail();
    const response = await register(t, { email, password: DEFAULT_PASSWORD });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['csrfToken', 'token', 'user']);
    assert.deepEqual(Object.keys(body.user).sort(), ['createdAt', 'email', 'id', 'role']);
    assert.equal(body.user.email, email);
    assert.equal(body.user.role, 'user');
    assert.equal(body.user.createdAt, new Date(t.clock.now()).toISOString());
    assert.doesNotMatch(response.body, /\$2[aby]\$/);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(body.token) });
    assert.equal(me.statusCode, 200);
    assert.deepEqual(me.json().user, body.user);
    assert.deepEqual(me.json().workspaces.map((w: object) => ({ ...w, id: 0 })), [{ id: 0, name: 'Personal', role: 'owner', isPersonal: true }]);
    const row = await t.deps.database.db.selectFrom('users').select(['password_hash']).where('id', '=', body.user.id).executeTakeFirstOrThrow();
    assert.equal(bcrypt.getRounds(row.password_hash), 4, 'hashed with BCRYPT_COST');
    assert.ok(await bcrypt.compare(DEFAULT_PASSWORD, row.password_hash));
  });

  test('emails are trimmed, lower-cased and unique: a case variant is a 409', async () => {
    const email = uniqueEmail('Mixed');
    const first = await register(t, { email: `  ${email.toUpperCase()} `, password: DEFAULT_PASSWORD });
    assert.equal(first.statusCode, 201);
    assert.equal(first.json().user.email, email.toLowerCase());
    const again = await register(t, { email: email.toLowerCase(), password: 'another password' });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'email_taken');
    const count = await t.deps.database.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
    const upper = await login(t, { email: email.toUpperCase(), password: DEFAULT_PASSWORD });
    assert.equal(upper.statusCode, 200, 'login compares emails case-insensitively');
  });

  test('concurrent registrations of one email make one user and 409s, through the unique index', async () => {
    const email = uniqueEmail('race');
    const responses = await Promise.all(Array.from({ length: 5 }, () => register(t, { email, password: DEFAULT_PASSWORD })));
    const statuses = responses.map((r) => r.statusCode).filter((s) => s !== 503).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join());
    assert.ok(statuses.every((s) => s === 201 || s === 409), statuses.join());
    const workspaces = await t.deps.database.db.selectFrom('workspaces').innerJoin('users', 'users.id', 'workspaces.created_by')
      .select('workspaces.id').where('users.email', '=', email).execute();
    assert.equal(workspaces.length, 1, 'no orphan personal workspace');
  });

  test('rejects malformed emails and unknown fields with 400', async () => {
    for (const email of ['not-an-email', 'a@b', ' ', 'two@@example.test']) {
      const response = await register(t, { email, password: DEFAULT_PASSWORD });
      assert.equal(response.statusCode, 400, email);
      assert.equal(response.json().code, 'email_invalid');
    }
    const extra = await register(t, { email: uniqueEmail(), password: DEFAULT_PASSWORD, role: 'admin' });
    assert.equal(extra.statusCode, 400);
    assert.equal(extra.json().code, 'validation_failed');
    assert.equal((await register(t, { email: uniqueEmail() })).statusCode, 400);
  });

  test('passwords are 8 to 72 UTF-8 bytes without NUL; longer ones are refused, never truncated', async () => {
    assert.equal((await register(t, { email: uniqueEmail(), password: 'a'.repeat(72) })).statusCode, 201);
    assert.equal((await register(t, { email: uniqueEmail(), password: '€'.repeat(24) })).statusCode, 201);
    const cases: Array<[string, string]> = [
      ['a'.repeat(73), 'password_too_long'],
      ['€'.repeat(25), 'password_too_long'],
      ['a'.repeat(7), 'password_too_short'],
      ['abcdefgh\0ijk', 'password_invalid'],
    ];
    for (const [password, code] of cases) {
      const email = uniqueEmail();
      const response = await register(t, { email, password });
      assert.equal(response.statusCode, 400, code);
      assert.equal(response.json().code, code);
      if (code === 'password_too_long') assert.match(response.json().detail, /72 bytes/);
      assert.equal((await login(t, { email, password: password.slice(0, 8) })).statusCode, 401, 'no account was made');
    }
  });

  test('a password longer than 72 bytes never logs in through bcrypt\'s truncation', async () => {
    const email = uniqueEmail();
    const refused = 'b'.repeat(73);
    assert.equal((await register(t, { email, password: refused })).statusCode, 400);
    assert.equal((await login(t, { email, password: refused.slice(0, 72) })).statusCode, 401);
    const other = uniqueEmail();
    const exact = 'c'.repeat(72);
    assert.equal((await register(t, { email: other, password: exact })).statusCode, 201);
    assert.equal((await login(t, { email: other, password: `${exact}X` })).statusCode, 401, 'bcrypt alone would accept this');
    assert.equal((await login(t, { email: other, password: exact })).statusCode, 200);
  });

  test('login answers 200 with a token that works, and the same user', async () => {
    const { user } = await registerUser(t.app);
    const response = await login(t, { email: user.email, password: DEFAULT_PASSWORD });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json().user.id, user.id);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(response.json().token) });
    assert.equal(me.json().user.email, user.email);
  });

  test('unknown email and wrong password get identical answers, each after one bcrypt comparison', async () => {
    const { user } = await registerUser(t.app);
    const attempt = async (email: string) => {
      const before = hashing.comparisons;
      const response = await login(t, { email, password: 'wrong password!' });
      return { response, comparisons: hashing.comparisons - before };
    };
    const wrong = await attempt(user.email);
    const unknown = await attempt(uniqueEmail('nobody'));
    const invalid = await attempt('not an email');
    for (const { response, comparisons } of [wrong, unknown, invalid]) {
      assert.equal(response.statusCode, 401);
      assert.equal(response.body, wrong.response.body);
      assert.deepEqual(Object.keys(response.headers).sort(), Object.keys(wrong.response.headers).sort());
      assert.equal(response.headers['www-authenticate'], 'Bearer');
      assert.equal(comparisons, 1);
    }
    assert.equal(wrong.response.json().code, 'credentials_invalid');
  });

  test('ADMIN_EMAILS grant the admin role at registration, case-insensitively', async () => {
    const admin = await register(t, { email: 'BOSS@example.test', password: DEFAULT_PASSWORD });
    assert.equal(admin.json().user.role, 'admin');
    assert.equal((await registerUser(t.app)).user.role, 'user');
  });
});

describe('rate limits and the hashing cap', () => {
  test('login and register are limited per IP (429 with Retry-After); another IP is unaffected', async (context) => {
    const hashing = new CountingHashing();
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '2' }, { passwordHashing: hashing });
    try {
      const credentials = { email: uniqueEmail(), password: DEFAULT_PASSWORD };
      assert.equal((await register(t, credentials, '10.0.0.1')).statusCode, 201);
      assert.equal((await register(t, { ...credentials, email: uniqueEmail() }, '10.0.0.1')).statusCode, 201);
      const limited = await register(t, { ...credentials, email: uniqueEmail() }, '10.0.0.1');
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.json().code, 'rate_limit_exceeded');
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal((await register(t, { ...credentials, email: uniqueEmail() }, '10.0.0.2')).statusCode, 201);

      assert.equal((await login(t, credentials, '10.0.0.3')).statusCode, 200);
      assert.equal((await login(t, { ...credentials, password: 'wrong password' }, '10.0.0.3')).statusCode, 401);
      const before = hashing.comparisons;
      const blocked = await login(t, credentials, '10.0.0.3');
      assert.equal(blocked.statusCode, 429);
      assert.ok(blocked.headers['retry-after']);
      assert.equal(hashing.comparisons, before, 'rate-limited before any hashing');
    } finally {
      await t.close();
    }
  });

  test('20 parallel logins run at most 2 bcrypt operations at once; the overflow gets 503 with Retry-After', async (context) => {
    const hashing = new CountingHashing();
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0' }, { passwordHashing: hashing });
    try {
      const { user } = await registerUser(t.app);
      // Comparisons wait until released: every login arrives while the first two still hash, so the
      // bounds decide alone how many are admitted (2 running + 8 queued), whatever the machine's speed.
      hashing.hold();
      const comparisonsBefore = hashing.comparisons;
      let answered = 0;
      const responses = Array.from({ length: 20 }, () => login(t, { email: user.email, password: DEFAULT_PASSWORD }).finally(() => { answered += 1; }));
      for (const deadline = Date.now() + 20_000; answered < 10 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(hashing.running, 2, 'two comparisons run; the rest wait in the queue or were refused');
      hashing.release();
      const answers = await Promise.all(responses);
      const statuses = answers.map((r) => r.statusCode);
      const busy = answers.filter((r) => r.statusCode === 503);
      assert.equal(hashing.peakRunning, 2);
      assert.ok(statuses.every((s) => s === 200 || s === 503), statuses.join());
      assert.equal(busy.length, 10, 'twenty at once overflow 2 running + 8 queued');
      assert.equal(hashing.comparisons - comparisonsBefore, 10, 'every admitted login hashed, no refused one did');
      for (const r of busy) assert.equal(r.headers['retry-after'], '5');
    } finally {
      await t.close();
    }
  });
});
