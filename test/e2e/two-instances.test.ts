import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createSecondInstance, type SecondInstance } from '../support/second-instance.js';
import { createAnonymousLink, createLink } from '../support/owned-links.js';
import { bearer, registerUser } from '../support/users.js';
import { linkInState, HOUR, QUICK_CLEANUP } from '../support/cleanup-fixtures.js';
import { deleteKeysUnder, eventually, freshKeyPrefix, REDIS_SERVER, testRedisClient } from '../support/redis.js';
import { onTeardown, suiteScope, type TeardownScope } from '../support/teardown.js';

/**
 * Two instances on one fresh PostgreSQL database and one Redis, under a key prefix of their own;
 * all removed when `scope` ends, even when a later step failed.
 */
async function twoInstances(scope: TeardownScope, env: Record<string, string> = {}) {
  const prefix = freshKeyPrefix();
  const shared = { REDIS_URL: REDIS_SERVER, REDIS_KEY_PREFIX: prefix, ...env };
  onTeardown(scope, () => deleteKeysUnder(prefix));
  const a = await createTestApp(scope, shared, { database: 'postgres' });
  const b = await createSecondInstance(scope, a, shared);
    await subscribed(a, b);
  return { a, b };
}

/** An instance listens to the other's changes only once their subscribers are up. */
async function subscribed(...instances: Array<TestApp | SecondInstance>): Promise<void> {
  const channel = `${instances[0]!.config.redis.keyPrefix}invalidate`;
  // A client of the test's own: the instances' command timeout is short, and a loaded machine can
  // pause this process for longer.
  const redis = testRedisClient();
  try {
    const listening = async () => Number(((await redis.pubsub('NUMSUB', channel)) as [string, number])[1]);
    assert.ok(await eventually(async () => instances.every((i) => i.deps.redis!.connection.subscriber.status === 'ready')
      && (await listening()) === instances.length, 10_000), 'both instances subscribed');
  } finally {
    redis.disconnect();
  }
}

const redirect = async (instance: TestApp | SecondInstance, code: string) => {
  const response = await instance.app.inject({ url: `/${code}` });
  return { status: response.statusCode, location: response.headers.location };
};

/** The other instance learns of a change within one second (docs/specification.md, ADR 0012). */
async function within1s(check: () => Promise<boolean>): Promise<boolean> {
  return eventually(check, 1_000);
}

describe('two instances on one PostgreSQL and one Redis', () => {
  let pair: Awaited<ReturnType<typeof twoInstances>>;
  let token: string;
  let adminToken: string;
  const suite = suiteScope();
  before(async () => {
    // Long lifetimes in B's memory: only the invalidation bus can make it let go within the test.
    pair = await twoInstances(suite, { ...QUICK_CLEANUP, RATE_LIMIT_ANON: '0', CACHE_TTL: '1d', CACHE_LOCAL_TTL: '1d', ADMIN_EMAILS: 'operator@example.test' });
    token = (await registerUser(pair.a.app)).token;
    adminToken = (await registerUser(pair.a.app, 'operator@example.test')).token;
  });

  test('a link the operator disables on A answers 410 with the reason on B within one second; enabled, it redirects again', async () => {
    const link = await createLink(pair.a.app, token, { url: 'https://example.com/abused' });
    assert.equal((await redirect(pair.b, link.shortCode)).status, 301);
    const disabled = await pair.a.app.inject({ method: 'POST', url: `/api/admin/links/${link.shortCode}/disable`, headers: bearer(adminToken), payload: { reason: 'Phishing' } });
    assert.equal(disabled.statusCode, 200, disabled.body);
    assert.ok(await within1s(async () => (await redirect(pair.b, link.shortCode)).status === 410), 'disabled on B');
    // B's answer now comes from Redis's entry or B's memory: both carry the reason.
    for (const instance of [pair.a, pair.b]) {
      const answer = (await instance.app.inject({ url: `/${link.shortCode}` })).json();
      assert.deepEqual([answer.code, answer.disabledReason], ['link_disabled', 'Phishing']);
    }
    await pair.a.app.inject({ method: 'POST', url: `/api/admin/links/${link.shortCode}/enable`, headers: bearer(adminToken) });
    assert.ok(await within1s(async () => (await redirect(pair.b, link.shortCode)).status === 301), 'enabled on B');
  });

  test('a code created on A redirects on B at once, even right after B answered 404 for it', async () => {
    const code = `fresh${Date.now().toString(36)}`;
    assert.equal((await redirect(pair.b, code)).status, 404);
    await createLink(pair.a.app, token, { url: 'https://example.com/new', customCode: code });
    assert.deepEqual(await redirect(pair.b, code), { status: 301, location: 'https://example.com/new' });
  });

  test('a link deleted on A answers 410 on B within one second; restored, it redirects again', async () => {
    const link = await createLink(pair.a.app, token, { url: 'https://example.com/doomed' });
    assert.equal((await redirect(pair.b, link.shortCode)).status, 301);
    assert.equal((await pair.a.app.inject({ method: 'DELETE', url: `/api/urls/${link.id}`, headers: bearer(token) })).statusCode, 204);
    assert.ok(await within1s(async () => (await redirect(pair.b, link.shortCode)).status === 410), 'deleted on B');
    assert.equal((await pair.a.app.inject({ method: 'POST', url: `/api/urls/${link.id}/restore`, headers: bearer(token) })).statusCode, 200);
    assert.ok(await within1s(async () => (await redirect(pair.b, link.shortCode)).status === 301), 'restored on B');
  });

  test('an edit on A changes where B redirects within one second', async () => {
    const link = await createLink(pair.a.app, token, { url: 'https://example.com/before' });
    assert.equal((await redirect(pair.b, link.shortCode)).location, 'https://example.com/before');
    const edited = await pair.a.app.inject({ method: 'PATCH', url: `/api/urls/${link.id}`, headers: bearer(token), payload: { url: 'https://example.com/after' } });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.ok(await within1s(async () => (await redirect(pair.b, link.shortCode)).location === 'https://example.com/after'));
  });

  test('a claim on A turns the temporary redirect into a permanent one on B within one second', async () => {
    const anonymous = await createAnonymousLink(pair.a.app, 'https://example.com/claimed');
    assert.equal((await redirect(pair.b, anonymous.shortCode)).status, 302);
    const claimed = await pair.a.app.inject({
      method: 'POST', url: '/api/urls/sync', headers: bearer(token),
      payload: { links: [{ shortCode: anonymous.shortCode, claimToken: anonymous.claimToken, url: 'https://example.com/claimed' }] },
    });
    assert.equal(claimed.statusCode, 200, claimed.body);
    assert.ok(await within1s(async () => (await redirect(pair.b, anonymous.shortCode)).status === 301));
  });

  test("the reaper's mark on A drops B's in-process entry within one second", async () => {
    const link = await linkInState(pair.a.deps, { expiresAt: pair.a.clock.now() + HOUR });
    assert.equal((await redirect(pair.b, link.code)).status, 302);
    assert.equal(pair.b.deps.localCache.get(DEFAULT_DOMAIN, link.code)?.status, 'ACTIVE');
    pair.a.clock.advance(2 * HOUR);
    const run = await pair.a.deps.cleanup.job.run();
    assert.equal(run.outcome === 'ran' && run.markedExpired, 1);
    assert.ok(await within1s(async () => pair.b.deps.localCache.get(DEFAULT_DOMAIN, link.code) === undefined));
    assert.equal((await redirect(pair.b, link.code)).status, 410);
  });
});

test('the anonymous create limit holds across both instances together', async (context) => {
  const pair = await twoInstances(context, { RATE_LIMIT_ANON: '3' });
    const create = (instance: TestApp | SecondInstance, n: number) =>
      instance.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: `https://example.com/limited/${n}` } });
    const statuses = [];
    for (let n = 0; n < 6; n++) statuses.push((await create(n % 2 === 0 ? pair.a : pair.b, n)).statusCode);
    assert.deepEqual(statuses, [201, 201, 201, 429, 429, 429]);
});
