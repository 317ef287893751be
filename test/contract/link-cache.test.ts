import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Redis } from 'ioredis';
import type { RedirectTarget } from '../../src/core/link.js';
import { invalidationChannel, redisLinkKey } from '../../src/cache/cache-keys.js';
import { MemoryLinkCache } from '../../src/cache/memory-link-cache.js';
import { RedisConnection } from '../../src/cache/redis-connection.js';
import { RedisInvalidation } from '../../src/cache/redis-invalidation.js';
import { listenForInvalidations } from '../../src/cache/redis-invalidation-listener.js';
import { RedisLinkCache } from '../../src/cache/redis-link-cache.js';
import { deleteKeysUnder, eventually, freshKeyPrefix, REDIS_SERVER, testRedisClient } from '../support/redis.js';
import { TestClock } from '../support/test-clock.js';

/** One tier as the contract sees it: asynchronous, whether the backend is or not. */
interface Tier {
  get(domain: string, code: string): Promise<RedirectTarget | null | undefined>;
  /** Taken before a lookup, so that a fill can tell whether a change happened meanwhile. */
  beginLookup(): number;
  remember(domain: string, code: string, target: RedirectTarget | undefined, lookup: number): Promise<void>;
  invalidate(domain: string, code: string): Promise<void>;
}

const TTL = { linkTtlMs: 3_600_000, tombstoneTtlMs: 3_600_000, negativeTtlMs: 60_000 };
const clock = new TestClock();
const prefix = freshKeyPrefix();
const connections: RedisConnection[] = [];

function connect(): RedisConnection {
  const connection = new RedisConnection({ url: REDIS_SERVER, commandTimeoutMs: 1_000 });
  connections.push(connection);
  connection.connect();
  return connection;
}

/** Another instance's in-process tier, listening on the channel (resolves once it is subscribed). */
async function listeningInstance(): Promise<MemoryLinkCache> {
  const local = new MemoryLinkCache({ ...TTL, maxEntries: 100, maxBytes: 1024 * 1024, clock });
  const observer = testRedisClient();
  try {
    const subscribers = async () => Number(((await observer.pubsub('NUMSUB', invalidationChannel(prefix))) as [string, number])[1]);
    const before = await subscribers();
    const connection = new RedisConnection({ url: REDIS_SERVER, commandTimeoutMs: 1_000 });
    connections.push(connection);
    listenForInvalidations(connection.subscriber, prefix, local);
    connection.connect();
    assert.ok(await eventually(async () => (await subscribers()) > before, 2_000), 'subscribed');
  } finally {
    observer.disconnect();
  }
  return local;
}

async function ready(client: Redis): Promise<void> {
  if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
}

after(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  await deleteKeysUnder(prefix);
});

const backends: Record<string, () => Promise<Tier>> = {
  memory: async () => {
    const cache = new MemoryLinkCache({ ...TTL, maxEntries: 100, maxBytes: 1024 * 1024, clock });
    return {
      get: async (domain, code) => cache.get(domain, code),
      beginLookup: () => cache.generation,
      remember: async (domain, code, target, lookup) => cache.remember(domain, code, target, clock.now(), lookup),
      invalidate: async (domain, code) => cache.forget(domain, code),
    };
  },
  redis: async () => {
    const connection = connect();
    await ready(connection.commands);
    const cache = new RedisLinkCache(connection, { prefix, ...TTL });
    const invalidation = new RedisInvalidation(connection, { prefix, markerTtlMs: 5_000, maxPending: 100, retryMs: 1_000 });
    return {
      get: (domain, code) => cache.get(domain, code),
      beginLookup: () => 0,
      remember: (domain, code, target) => cache.remember(domain, code, target, clock.now()),
      invalidate: (domain, code) => invalidation.invalidate(domain, code),
    };
  },
};

let counter = 0;
function target(overrides: Partial<RedirectTarget> = {}): RedirectTarget {
  counter += 1;
  return { url: `https://example.com/${counter}`, expiresAt: null, status: 'ACTIVE', linkId: counter, permanent: true, ...overrides };
}
const uniqueCode = () => `c${++counter}x${Math.random().toString(36).slice(2, 8)}`;

for (const [name, open] of Object.entries(backends)) {
  describe(`the link cache contract: ${name}`, () => {
    test('a remembered link reads back with every field', async () => {
      const tier = await open();
      const code = uniqueCode();
      const link = target({ expiresAt: clock.now() + 60_000, permanent: false });
      await tier.remember('sho.rt', code, link, tier.beginLookup());
      assert.deepEqual(await tier.get('sho.rt', code), link);
    });

    test('a link with a redirect status of its own reads back with it', async () => {
      const tier = await open();
      const code = uniqueCode();
      const link = target({ redirectStatus: 307 });
      await tier.remember('sho.rt', code, link, tier.beginLookup());
      assert.deepEqual(await tier.get('sho.rt', code), link);
    });

    test('a link with options, a password and a click limit reads back with its extras', async () => {
      const tier = await open();
      const code = uniqueCode();
      const link = target({ extras: { options: { fallbackUrl: 'https://example.com/later', routes: [{ country: ['DE'], url: 'https://example.de/' }] }, passwordHash: '$2b$10$abcdefghijklmnopqrstuv', maxClicks: 10 } });
      await tier.remember('sho.rt', code, link, tier.beginLookup());
      assert.deepEqual(await tier.get('sho.rt', code), link);
    });

    test('a gone link reads back as a tombstone with its status', async () => {
      const tier = await open();
      const code = uniqueCode();
      const gone = target({ status: 'DELETED' });
      await tier.remember('sho.rt', code, gone, tier.beginLookup());
      assert.deepEqual(await tier.get('sho.rt', code), gone);
    });

    test('a code never seen is unknown, a code remembered as missing reads null', async () => {
      const tier = await open();
      const code = uniqueCode();
      assert.equal(await tier.get('sho.rt', code), undefined);
      await tier.remember('sho.rt', code, undefined, tier.beginLookup());
      assert.equal(await tier.get('sho.rt', code), null);
    });

    test('the same code on another domain is another entry', async () => {
      const tier = await open();
      const code = uniqueCode();
      await tier.remember('sho.rt', code, target(), tier.beginLookup());
      assert.equal(await tier.get('other.example', code), undefined);
    });

    test('an invalidated code reads unknown', async () => {
      const tier = await open();
      const code = uniqueCode();
      await tier.remember('sho.rt', code, undefined, tier.beginLookup());
      await tier.invalidate('sho.rt', code);
      assert.equal(await tier.get('sho.rt', code), undefined);
    });

    test('a lookup that began before an invalidation cannot plant its stale answer', async () => {
      const tier = await open();
      const code = uniqueCode();
      const lookup = tier.beginLookup();
      await tier.invalidate('sho.rt', code);
      await tier.remember('sho.rt', code, undefined, lookup);
      assert.equal(await tier.get('sho.rt', code), undefined);
    });
  });
}

describe('the shared tier in Redis', () => {
  async function openRedis(markerTtlMs = 5_000) {
    const connection = connect();
    await ready(connection.commands);
    const cache = new RedisLinkCache(connection, { prefix, linkTtlMs: 3_600_000, tombstoneTtlMs: 1_800_000, negativeTtlMs: 60_000 });
    const invalidation = new RedisInvalidation(connection, { prefix, markerTtlMs, maxPending: 100, retryMs: 1_000 });
    return { redis: connection.commands, cache, invalidation };
  }
  const ttlOf = (redis: Redis, code: string) => redis.pttl(redisLinkKey(prefix, 'sho.rt', code));

  test('entries are stored as JSON of exactly what a redirect needs', async () => {
    const { redis, cache } = await openRedis();
    const code = uniqueCode();
    await cache.remember('sho.rt', code, { ...target({ linkId: 7 }), url: 'https://example.com/a' }, clock.now());
    const stored = JSON.parse((await redis.get(redisLinkKey(prefix, 'sho.rt', code)))!);
    assert.deepEqual(Object.keys(stored).sort(), ['expiresAt', 'linkId', 'permanent', 'status', 'url']);
    assert.equal(stored.url, 'https://example.com/a');
  });

  test('links live CACHE_TTL, tombstones CACHE_TOMBSTONE_TTL, unknown codes CACHE_NEGATIVE_TTL', async () => {
    const { redis, cache } = await openRedis();
    const [live, expired, deleted, unknown] = [uniqueCode(), uniqueCode(), uniqueCode(), uniqueCode()];
    await cache.remember('sho.rt', live, target(), clock.now());
    // ACTIVE in its column but past its expiry: a tombstone too.
    await cache.remember('sho.rt', expired, target({ expiresAt: clock.now() - 1 }), clock.now());
    await cache.remember('sho.rt', deleted, target({ status: 'DELETED' }), clock.now());
    await cache.remember('sho.rt', unknown, undefined, clock.now());
    const within = (ttl: number, expected: number) => ttl > expected - 5_000 && ttl <= expected;
    assert.ok(within(await ttlOf(redis, live), 3_600_000));
    assert.ok(within(await ttlOf(redis, expired), 1_800_000));
    assert.ok(within(await ttlOf(redis, deleted), 1_800_000));
    assert.ok(within(await ttlOf(redis, unknown), 60_000));
  });

  test('an invalidation leaves a short marker that reads unknown and blocks fills until it lapses', async () => {
    const { redis, cache, invalidation } = await openRedis(300);
    const code = uniqueCode();
    await cache.remember('sho.rt', code, target(), clock.now());
    await invalidation.invalidate('sho.rt', code);
    assert.ok((await ttlOf(redis, code)) <= 300);
    await cache.remember('sho.rt', code, undefined, clock.now());
    assert.equal(await cache.get('sho.rt', code), undefined);
    const link = target();
    const filled = await eventually(async () => {
      await cache.remember('sho.rt', code, link, clock.now());
      return (await cache.get('sho.rt', code))?.linkId === link.linkId;
    }, 2_000);
    assert.ok(filled, 'fills resume once the marker has lapsed');
  });

  test('an invalidation reaches every subscribed instance, which forgets its in-process entry', async () => {
    const { invalidation } = await openRedis();
    const local = await listeningInstance();
    const code = uniqueCode();
    local.remember('sho.rt', code, target(), clock.now());
    await invalidation.invalidate('sho.rt', code);
    assert.ok(await eventually(async () => local.get('sho.rt', code) === undefined, 1_000));
  });

  test('a message on another prefix or for another code leaves an entry alone', async () => {
    const local = await listeningInstance();
    const [code, probe] = [uniqueCode(), uniqueCode()];
    local.remember('sho.rt', code, target(), clock.now());
    local.remember('sho.rt', probe, target(), clock.now());
    const publisher = testRedisClient();
    try {
      await publisher.publish(invalidationChannel(`${prefix}other:`), `sho.rt/${code}`);
      await publisher.publish(invalidationChannel(prefix), `other.example/${code}`);
      // Messages arrive in order: once the probe is forgotten, the earlier ones were delivered.
      await publisher.publish(invalidationChannel(prefix), `sho.rt/${probe}`);
      assert.ok(await eventually(async () => local.get('sho.rt', probe) === undefined, 1_000));
    } finally {
      publisher.disconnect();
    }
    assert.notEqual(local.get('sho.rt', code), undefined);
  });
});
