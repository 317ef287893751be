/**
 * The scaled profile's services, each made for one run and removed at its end (also on Ctrl-C):
 * a PostgreSQL database of its own on 127.0.0.1:5432, migrated by the app and seeded with the
 * run's links, and a Redis key prefix of its own on 127.0.0.1:6379.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { redisLinkKeyPattern } from '../../src/cache/cache-keys.js';
import { loadConfig } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import { createTestDatabase } from '../../test/support/postgres.js';
import { atCleanUp } from './children.js';
import { seedPostgres, type SeededLink } from './seed-links.js';

/** The machine's Redis: the bench sends traffic to 127.0.0.1 only. */
export const BENCH_REDIS_URL = 'redis://127.0.0.1:6379';

/** A PostgreSQL database holding `links` under `domain`; answers its URL. Dropped at the end. */
export async function benchPostgres(appSettings: Readonly<Record<string, string>>, domain: string, links: readonly SeededLink[]): Promise<string> {
  const database = await createTestDatabase('linkforge_bench');
  atCleanUp(() => database.drop());
  const deps = await createDeps(loadConfig({ ...appSettings, DATABASE_URL: database.url })); // runs the migrations
  await deps.close();
  await seedPostgres(database.url, domain, links);
  return database.url;
}

/** A Redis key prefix no one else uses; every key under it is removed at the end. */
export function benchRedisPrefix(): string {
  const prefix = `linkforge-bench-${process.pid}-${crypto.randomBytes(4).toString('hex')}:`;
  atCleanUp(async () => {
    const removed = await withRedis(async (redis) => {
      let count = 0;
      for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
        if (keys.length > 0) count += await redis.unlink(...keys);
      }
      return count;
    });
    console.error(`removed ${removed} Redis key(s) under ${prefix}`);
  });
  return prefix;
}

/** How many links are cached in Redis under `prefix` (the app's own key pattern). */
export function cachedLinkCount(prefix: string): Promise<number> {
  return withRedis(async (redis) => {
    let count = 0;
    for await (const keys of redis.scanStream({ match: redisLinkKeyPattern(prefix), count: 1000 }) as AsyncIterable<string[]>) count += keys.length;
    return count;
  });
}

async function withRedis<T>(work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(BENCH_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  await redis.connect();
  try {
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}
