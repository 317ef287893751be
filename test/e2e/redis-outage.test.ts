import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { redisLinkKey } from '../../src/cache/cache-keys.js';
import { MemoryLinkCache } from '../../src/cache/memory-link-cache.js';
import { RedisConnection } from '../../src/cache/redis-connection.js';
import { RedisInvalidation } from '../../src/cache/redis-invalidation.js';
import { listenForInvalidations } from '../../src/cache/redis-invalidation-listener.js';
import { CHANGING_MARKER, encodeEntry } from '../../src/cache/redis-link-cache.js';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import { createDeps, type Composition } from '../../src/deps.js';
import { insertLink } from '../support/links.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { eventually, freshKeyPrefix, startPrivateRedis, testRedisClient, type PrivateRedis } from '../support/redis.js';
import { freePort } from '../support/free-port.js';
import { postgresEnv, testConfig } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { bearer, registerUser } from '../support/users.js';
import { onTeardown, once, suiteScope, type TeardownScope } from '../support/teardown.js';

interface Instance {
  readonly app: FastifyInstance;
  readonly deps: Composition;
  /** Every line the instance logged, parsed. */
  readonly logs: Array<{ level: number; msg: string; [field: string]: unknown }>;
  close(): Promise<void>;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-redis-outage-'));
let database: TestDatabase;
before(async () => { database = await createTestDatabase(); });
after(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An app on the file's PostgreSQL database and the given Redis, logging into an array, closed when `scope` ends. */
async function startInstance(scope: TeardownScope, redisUrl: string, prefix: string, env: Record<string, string> = {}): Promise<Instance> {
  const logs: Instance['logs'] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const config = testConfig(dataDir, { ...postgresEnv(database), REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, ...env });
  const deps = await createDeps(config, { logger });
  const closeDeps = once(() => deps.close());
  onTeardown(scope, closeDeps);
  const app = await buildApp(deps, { logger });
  const closeApp = once(() => app.close());
  onTeardown(scope, closeApp);
  await app.ready();
  const close = once(async () => {
    await closeApp();
    await closeDeps();
  });
  return { app, deps, logs, close };
}

const outageLines = (instance: Instance) => instance.logs.filter((line) => line.msg.includes('unreachable'));
const recoveryLines = (instance: Instance) => instance.logs.filter((line) => line.msg.includes('reachable again'));
const redirect = async (instance: Instance, code: string) => {
  const response = await instance.app.inject({ url: `/${code}` });
  return { status: response.statusCode, location: response.headers.location };
};
const createAnonymous = async (instance: Instance, url: string) =>
  instance.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url } });
const reachable = (instance: Instance) => eventually(async () => instance.deps.redis!.connection.isReachable, 5_000);

describe('Redis stopped and started again under a running app', () => {
  let redis: PrivateRedis;
  const suite = suiteScope();
  before(async () => { redis = await startPrivateRedis(suite); });

  test('redirects and creates go on from memory and the database, logged once; caching resumes when Redis returns', async (context) => {
    const prefix = freshKeyPrefix();
    const app = await startInstance(context, redis.url, prefix);
    const peek = testRedisClient(redis.url);
    peek.on('error', () => {});
    onTeardown(context, () => peek.disconnect());
    assert.ok(await reachable(app));
    const cached = await insertLink(app.deps, { originalUrl: 'https://example.com/cached' });
    assert.equal((await redirect(app, cached.code)).status, 301);
    const cachedKey = redisLinkKey(prefix, DEFAULT_DOMAIN, cached.code);
    assert.ok(await eventually(async () => (await peek.get(cachedKey)) !== null, 2_000), 'cached in Redis');
    const uncached = await insertLink(app.deps, { originalUrl: 'https://example.com/uncached' });

    await redis.stop();
    assert.ok(await eventually(async () => !app.deps.redis!.connection.isReachable, 5_000));
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(await redirect(app, cached.code), { status: 301, location: 'https://example.com/cached' }, 'a memory hit');
      assert.deepEqual(await redirect(app, uncached.code), { status: 301, location: 'https://example.com/uncached' }, 'a miss, from the database');
      assert.equal((await redirect(app, `nosuch${i}`)).status, 404);
    }
    const created = await createAnonymous(app, 'https://example.com/during-outage');
    assert.equal(created.statusCode, 201, created.body);
    const code = (created.json() as { shortCode: string }).shortCode;
    assert.equal((await redirect(app, code)).status, 302);
    assert.equal(app.deps.redis!.invalidation.pendingCount, 1, 'the create is remembered for Redis');
    assert.equal(outageLines(app).length, 1, 'the outage is logged once');
    assert.match(outageLines(app)[0]!.msg, new RegExp(`Redis at 127\\.0\\.0\\.1:${redis.port} unreachable; redirects fall back to the database`));
    assert.ok(app.logs.every((line) => line.err === undefined && !JSON.stringify(line).includes('    at ')), 'no stack traces');

    await redis.start();
    assert.ok(await eventually(async () => recoveryLines(app).length === 1, 5_000), 'the recovery is logged');
    // Redis came back empty: the marker of the create made during the outage can only be the replay's.
    const replayedKey = redisLinkKey(prefix, DEFAULT_DOMAIN, code);
    assert.ok(await eventually(async () => (await peek.get(replayedKey)) === CHANGING_MARKER, 2_000), 'the missed invalidation is replayed');
    // Redis answers the replay to the app and the GET to this test on two sockets: the test can
    // read its answer first, before the app has taken the replayed change off its list.
    assert.ok(await eventually(async () => app.deps.redis!.invalidation.pendingCount === 0, 2_000), 'and taken off the list');
    const later = await insertLink(app.deps);
    assert.equal((await redirect(app, later.code)).status, 301);
    const laterKey = redisLinkKey(prefix, DEFAULT_DOMAIN, later.code);
    assert.ok(await eventually(async () => (await peek.get(laterKey)) !== null, 2_000), 'caching resumed');
    assert.equal(outageLines(app).length, 1, JSON.stringify(app.logs));
  });

  test('a change made while Redis was down is not served stale by another instance once it returns', async (context) => {
    const prefix = freshKeyPrefix();
    // Long lifetimes in memory: only Redis coming back can make B let go of its entries in time.
    const env = { CACHE_TTL: '1d', CACHE_LOCAL_TTL: '1d' };
    await redis.start();
    const a = await startInstance(context, redis.url, prefix, env);
    const b = await startInstance(context, redis.url, prefix, env);
    assert.ok(await reachable(a));
    assert.ok(await reachable(b));
    const { token } = await registerUser(a.app);
    const created = await a.app.inject({ method: 'POST', url: '/api/urls', headers: bearer(token), payload: { url: 'https://example.com/old' } });
    assert.equal(created.statusCode, 201, created.body);
    const link = created.json() as { id: number; shortCode: string };
    // Changed behind every cache's back: only a full drop of B's memory can correct it.
    const sideways = await insertLink(a.deps, { originalUrl: 'https://example.com/sideways-old' });
    assert.equal((await redirect(b, link.shortCode)).location, 'https://example.com/old');
    assert.equal((await redirect(b, sideways.code)).location, 'https://example.com/sideways-old');

    await redis.stop();
    const edited = await a.app.inject({ method: 'PATCH', url: `/api/urls/${link.id}`, headers: bearer(token), payload: { url: 'https://example.com/new' } });
    assert.equal(edited.statusCode, 200, edited.body);
    await a.deps.database.db.updateTable('links').set({ original_url: 'https://example.com/sideways-new' }).where('id', '=', sideways.id).execute();

    await redis.start();
    assert.ok(await eventually(async () => (await redirect(b, link.shortCode)).location === 'https://example.com/new', 5_000), 'the edit reaches B');
    assert.ok(await eventually(async () => (await redirect(b, sideways.code)).location === 'https://example.com/sideways-new', 5_000), 'B dropped its memory');
  });
  test('a Redis that hangs: commands time out, redirects go on from memory and the database, logged once each way', async (context) => {
    await redis.start();
    // Shorter than the hang by far, and long enough that a loaded machine pausing this process does
    // not time a command out before the hang begins (which would log an outage of its own).
    const app = await startInstance(context, redis.url, freshKeyPrefix(), { REDIS_COMMAND_TIMEOUT: '400ms' });
    const admin = testRedisClient(redis.url);
    onTeardown(context, () => admin.disconnect());
    assert.ok(await reachable(app));
    const cached = await insertLink(app.deps, { originalUrl: 'https://example.com/hang-cached' });
    assert.equal((await redirect(app, cached.code)).status, 301);
    const uncached = await insertLink(app.deps, { originalUrl: 'https://example.com/hang-uncached' });

    // Every client's commands wait in Redis, the connections stay open: a hang, not a crash.
    await admin.call('CLIENT', 'PAUSE', '1500', 'ALL');
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(await redirect(app, cached.code), { status: 301, location: 'https://example.com/hang-cached' });
      assert.deepEqual(await redirect(app, uncached.code), { status: 301, location: 'https://example.com/hang-uncached' });
      assert.equal((await redirect(app, `hung${i}`)).status, 404);
    }
    assert.equal(outageLines(app).length, 1, 'the hang is logged once');
    let probe = 0;
    assert.ok(await eventually(async () => {
      await redirect(app, `after${probe++}`);
      return recoveryLines(app).length === 1;
    }, 5_000), 'the recovery is noticed and logged');
    assert.equal(outageLines(app).length, 1);
  });

  test('changes missed while Redis hangs are replayed when it answers again; too many become a full resync', async (context) => {
    await redis.start();
    const prefix = freshKeyPrefix();
    const clock = new TestClock();
    const connection = new RedisConnection({ url: redis.url, commandTimeoutMs: 100 });
    onTeardown(context, () => connection.close());
    const invalidation = new RedisInvalidation(connection, { prefix, markerTtlMs: 5_000, maxPending: 2, retryMs: 100 });
    onTeardown(context, () => invalidation.stop());
    const listener = new RedisConnection({ url: redis.url, commandTimeoutMs: 1_000 });
    onTeardown(context, () => listener.close());
    const local = new MemoryLinkCache({ maxEntries: 10, maxBytes: 1024 * 1024, linkTtlMs: 3_600_000, tombstoneTtlMs: 3_600_000, negativeTtlMs: 0, clock });
    listenForInvalidations(listener.subscriber, prefix, local);
    const admin = testRedisClient(redis.url);
    onTeardown(context, () => admin.disconnect());
    connection.connect();
    listener.connect();
    const subscribers = async () => Number(((await admin.pubsub('NUMSUB', `${prefix}invalidate`)) as [string, number])[1]);
    assert.ok(await eventually(async () => connection.isReachable && (await subscribers()) === 1, 5_000));
    const target = { url: 'https://example.com/', expiresAt: null, status: 'ACTIVE' as const, linkId: 1, permanent: true };
    await admin.set(redisLinkKey(prefix, DEFAULT_DOMAIN, 'kept1'), encodeEntry(target));
    local.remember(DEFAULT_DOMAIN, 'kept1', target, clock.now());

    // Writes hang (the connection stays open): commands time out, nothing reconnects.
    await admin.call('CLIENT', 'PAUSE', '1000', 'WRITE');
    await invalidation.invalidate(DEFAULT_DOMAIN, 'gone1');
    await invalidation.invalidate(DEFAULT_DOMAIN, 'gone2');
    assert.equal(invalidation.pendingCount, 2);
    await invalidation.invalidate(DEFAULT_DOMAIN, 'gone3');
    assert.equal(invalidation.pendingCount, 0, 'past the bound the list gives way to a full resync');

    assert.ok(await eventually(async () => (await admin.exists(redisLinkKey(prefix, DEFAULT_DOMAIN, 'kept1'))) === 0, 5_000), 'every cached link is dropped');
    assert.ok(await eventually(async () => local.get(DEFAULT_DOMAIN, 'kept1') === undefined, 1_000), 'every instance drops its memory');
  });
});

test('a REDIS_URL that cannot be reached at start-up: the app starts, says so once, serves redirects and keeps its limits in memory', async (context) => {
  const port = await freePort();
  const app = await startInstance(context, `redis://127.0.0.1:${port}`, freshKeyPrefix(), { RATE_LIMIT_ANON: '2' });
  let reconnects = 0;
  app.deps.redis!.connection.commands.on('reconnecting', () => { reconnects += 1; });
  const link = await insertLink(app.deps, { originalUrl: 'https://example.com/no-redis' });
  assert.deepEqual(await redirect(app, link.code), { status: 301, location: 'https://example.com/no-redis' });
  assert.deepEqual(await redirect(app, link.code), { status: 301, location: 'https://example.com/no-redis' });
  assert.equal((await redirect(app, 'nosuchcode')).status, 404);
  const creates = [];
  for (let n = 0; n < 3; n++) creates.push((await createAnonymous(app, `https://example.com/created/${n}`)).statusCode);
  assert.deepEqual(creates, [201, 201, 429]);
  assert.ok(await eventually(async () => reconnects >= 3, 5_000), 'it keeps trying');
  assert.equal(outageLines(app).length, 1);
  assert.match(outageLines(app)[0]!.msg, new RegExp(`^Redis at 127\\.0\\.0\\.1:${port} unreachable; redirects fall back to the database$`));
  assert.ok(app.logs.every((line) => line.level < 50), 'nothing logged as an error');
});
