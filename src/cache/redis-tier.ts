import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { LocalLinkCache } from '../core/ports.js';
import { rateLimitNamespace } from './cache-keys.js';
import { RedisConnection } from './redis-connection.js';
import { RedisInvalidation } from './redis-invalidation.js';
import { listenForInvalidations } from './redis-invalidation-listener.js';
import { RedisLinkCache } from './redis-link-cache.js';

export interface RedisTier {
  readonly connection: RedisConnection;
  readonly cache: RedisLinkCache;
  readonly invalidation: RedisInvalidation;
  /** What @fastify/rate-limit needs to keep its counters in Redis. */
  readonly rateLimitStore: { readonly redis: Redis; readonly nameSpace: string };
  close(): Promise<void>;
}

/** Everything scaled mode keeps in Redis, connecting in the background (start-up never waits). */
export function openRedisTier(config: Config, url: string, local: LocalLinkCache, logger?: Pick<Logger, 'info' | 'warn'>): RedisTier {
  const prefix = config.redis.keyPrefix;
  const connection = new RedisConnection({ url, commandTimeoutMs: config.redis.commandTimeoutMs, logger });
  const cache = new RedisLinkCache(connection, {
    prefix,
    linkTtlMs: config.cache.linkTtlMs,
    tombstoneTtlMs: config.cache.tombstoneTtlMs,
    negativeTtlMs: config.cache.negativeTtlMs,
  });
  const invalidation = new RedisInvalidation(connection, {
    prefix,
    markerTtlMs: Math.max(config.dbStatementTimeoutMs, config.dbWriteTimeoutMs) + 1_000,
    maxPending: 10_000,
    retryMs: 1_000,
  });
  listenForInvalidations(connection.subscriber, prefix, local);
  connection.connect();
  return {
    connection, cache, invalidation,
    rateLimitStore: { redis: connection.commands, nameSpace: rateLimitNamespace(prefix) },
    async close() {
      invalidation.stop();
      await connection.close();
    },
  };
}
