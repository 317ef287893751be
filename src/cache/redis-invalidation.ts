import { invalidationChannel, invalidationMessage, localLinkKey, redisLinkKey, redisLinkKeyPattern, RESYNC_MESSAGE } from './cache-keys.js';
import type { SharedInvalidation } from './cache-invalidation.js';
import type { RedisConnection } from './redis-connection.js';
import { CHANGING_MARKER } from './redis-link-cache.js';

export interface RedisInvalidationOptions {
  readonly prefix: string;
  /**
   * How long a change's marker blocks fills. At least the database statement timeout: a lookup
   * that read the database just before the change committed fills at most that long after it.
   */
  readonly markerTtlMs: number;
  /** Changes remembered while Redis is unreachable; past that, a full resync replaces them. */
  readonly maxPending: number;
  /** How often remembered changes are retried while Redis answers nothing (a hang, not a crash). */
  readonly retryMs: number;
}

/**
 * A change reaches Redis as a marker in the link's key plus a message to every instance. What
 * cannot reach Redis is remembered and replayed when it answers again, so the write that called
 * stands and no other instance keeps the old answer for long.
 */
export class RedisInvalidation implements SharedInvalidation {
  private readonly pending = new Map<string, { domain: string; code: string }>();
  private resyncNeeded = false;
  private replaying: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly redis: Pick<RedisConnection, 'run' | 'commands'>, private readonly options: RedisInvalidationOptions) {
    redis.commands.on('ready', () => void this.replay());
  }

  async invalidate(domain: string, code: string): Promise<void> {
    if (!(await this.announce(domain, code))) this.remember(domain, code);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Stops retrying; what is still pending is then left to the entries' TTLs. */
  stop(): void {
    clearTimeout(this.retryTimer);
  }

  private async announce(domain: string, code: string): Promise<boolean> {
    const { prefix, markerTtlMs } = this.options;
    try {
      const results = await this.redis.run((redis) => redis.multi()
        .set(redisLinkKey(prefix, domain, code), CHANGING_MARKER, 'PX', markerTtlMs)
        .publish(invalidationChannel(prefix), invalidationMessage(domain, code))
        .exec());
      return results !== null && results.every(([error]) => !error);
    } catch {
      return false;
    }
  }

  private remember(domain: string, code: string): void {
    if (!this.resyncNeeded) {
      this.pending.set(localLinkKey(domain, code), { domain, code });
      if (this.pending.size > this.options.maxPending) {
        this.pending.clear();
        this.resyncNeeded = true;
      }
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.replay();
    }, this.options.retryMs).unref();
  }

  private replay(): Promise<void> {
    this.replaying ??= this.replayPending().finally(() => { this.replaying = undefined; });
    return this.replaying;
  }

  private async replayPending(): Promise<void> {
    if (this.resyncNeeded) {
      if (!(await this.resync())) return this.scheduleRetry();
      this.resyncNeeded = false;
    }
    for (const [key, { domain, code }] of this.pending) {
      if (!(await this.announce(domain, code))) return this.scheduleRetry();
      this.pending.delete(key);
    }
  }

  /** Too many changes were missed to list: drop every cached link, everywhere. */
  private async resync(): Promise<boolean> {
    const { prefix } = this.options;
    try {
      await this.redis.run(async (redis) => {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', redisLinkKeyPattern(prefix), 'COUNT', 1000);
          if (keys.length > 0) await redis.unlink(...keys);
          cursor = next;
        } while (cursor !== '0');
        await redis.publish(invalidationChannel(prefix), RESYNC_MESSAGE);
      });
      return true;
    } catch {
      return false;
    }
  }
}
