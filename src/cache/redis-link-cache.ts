import { effectiveStatus, LINK_REDIRECT_STATUSES, type RedirectStatus, type RedirectTarget } from '../core/link.js';
import type { SharedLinkCache } from '../core/ports.js';
import { redisLinkKey } from './cache-keys.js';
import type { RedisConnection } from './redis-connection.js';

/**
 * What an invalidation leaves in a link's key for a few seconds: fills (SET NX) cannot replace
 * it, and readers take it as "unknown". Not JSON, so it can never be mistaken for an entry.
 */
export const CHANGING_MARKER = 'changing';

export interface RedisLinkCacheOptions {
  readonly prefix: string;
  readonly linkTtlMs: number;
  /** Expired and deleted links (CACHE_TOMBSTONE_TTL). */
  readonly tombstoneTtlMs: number;
  /** Unknown codes (CACHE_NEGATIVE_TTL); `0` keeps none. */
  readonly negativeTtlMs: number;
}

const STATUSES: readonly RedirectStatus[] = ['ACTIVE', 'EXPIRED', 'DELETED', 'DISABLED'];

/** An entry as stored: the target as JSON, or JSON `null` for a code known not to exist. */
export function encodeEntry(target: RedirectTarget | undefined): string {
  if (target === undefined) return 'null';
  const { url, expiresAt, status, linkId, permanent, disabledReason, redirectStatus, extras } = target;
  return JSON.stringify({ url, expiresAt, status, linkId, permanent, disabledReason, redirectStatus, extras });
}

/** `null` for a negative entry; `undefined` for a marker or anything this version cannot read. */
export function decodeEntry(text: string): RedirectTarget | null | undefined {
  if (text === CHANGING_MARKER) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null) return null;
  const entry = value as Partial<RedirectTarget>;
  const valid = typeof entry.url === 'string' && typeof entry.linkId === 'number' && typeof entry.permanent === 'boolean'
    && (entry.expiresAt === null || typeof entry.expiresAt === 'number') && STATUSES.includes(entry.status as RedirectStatus)
    && (entry.status === 'DISABLED') === (typeof entry.disabledReason === 'string')
    && (entry.redirectStatus === undefined || LINK_REDIRECT_STATUSES.includes(entry.redirectStatus))
    && (entry.extras === undefined || (typeof entry.extras === 'object' && entry.extras !== null));
  return valid ? (entry as RedirectTarget) : undefined;
}

/**
 * The shared tier: one key per (domain, code) holding a structured entry. Fills never replace
 * what is there (SET NX), so a lookup that read the database before a change committed cannot
 * overwrite the change's marker with its stale answer.
 */
export class RedisLinkCache implements SharedLinkCache {
  constructor(private readonly redis: Pick<RedisConnection, 'run'>, private readonly options: RedisLinkCacheOptions) {}

  async get(domain: string, code: string): Promise<RedirectTarget | null | undefined> {
    const text = await this.redis.run((redis) => redis.get(redisLinkKey(this.options.prefix, domain, code)));
    return text === null ? undefined : decodeEntry(text);
  }

  async remember(domain: string, code: string, target: RedirectTarget | undefined, now: number): Promise<void> {
    const ttl = this.ttlOf(target, now);
    if (ttl <= 0) return;
    const key = redisLinkKey(this.options.prefix, domain, code);
    await this.redis.run((redis) => redis.set(key, encodeEntry(target), 'PX', ttl, 'NX'));
  }

  private ttlOf(target: RedirectTarget | undefined, now: number): number {
    if (target === undefined) return this.options.negativeTtlMs;
    return effectiveStatus(target, now) === 'ACTIVE' ? this.options.linkTtlMs : this.options.tombstoneTtlMs;
  }
}
