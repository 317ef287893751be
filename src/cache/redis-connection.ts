import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisConnectionOptions {
  readonly url: string;
  /** A command slower than this fails (REDIS_COMMAND_TIMEOUT), and the caller falls back. */
  readonly commandTimeoutMs: number;
  readonly logger?: Pick<Logger, 'info' | 'warn'>;
}

/** Reconnects for ever, 100 ms after the first failure, then at most 2 s apart. */
function reconnectDelay(attempt: number): number {
  return Math.min(attempt * 100, 2_000);
}

/**
 * After a command times out, commands are skipped this long: a Redis that hangs costs one
 * timeout a second, not one per request (a circuit breaker with a one-second open state).
 */
const SKIP_AFTER_TIMEOUT_MS = 1_000;

/** Thrown instead of sending a command while Redis is down or hanging; callers fall back. */
export class RedisUnavailableError extends Error {
  constructor() {
    super('Redis is unavailable');
    this.name = 'RedisUnavailableError';
  }
}

/** `host:port` of a Redis URL, without its credentials, for log lines. */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

/**
 * The two connections of one instance: one for commands, one in subscriber mode (a connection
 * that subscribes can send nothing else). Neither blocks start-up: both connect in the background
 * and reconnect for ever. Whether Redis is reachable is logged once per change, never per request.
 */
export class RedisConnection {
  readonly commands: Redis;
  readonly subscriber: Redis;
  private reachable: boolean | undefined;
  private closing = false;
  private skipUntil = 0;
  private readonly address: string;

  constructor(private readonly options: RedisConnectionOptions) {
    this.address = redisAddress(options.url);
    const common: RedisOptions = {
      lazyConnect: true,
      retryStrategy: reconnectDelay,
      // A command fails at once while Redis is down instead of waiting for the reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    };
    this.commands = new Redis(options.url, { ...common, commandTimeout: options.commandTimeoutMs });
    this.subscriber = new Redis(options.url, common);
    this.commands.on('ready', () => this.changed(true));
    this.commands.on('error', (error: Error) => this.changed(false, error.message));
    this.commands.on('close', () => this.changed(false));
    // Without a listener ioredis prints every failed reconnect with its stack; the commands
    // connection already reports the outage.
    this.subscriber.on('error', () => {});
  }

  get isReachable(): boolean {
    return this.reachable === true;
  }

  /**
   * Runs commands on the commands connection, or fails at once while Redis is down or has just
   * timed out. Timeouts (a hang: the connection stays open) count as unreachable too.
   */
  async run<T>(commands: (redis: Redis) => Promise<T>): Promise<T> {
    if (this.commands.status !== 'ready' || Date.now() < this.skipUntil) throw new RedisUnavailableError();
    try {
      const result = await commands(this.commands);
      this.changed(true);
      return result;
    } catch (error) {
      if (error instanceof Error && error.message === 'Command timed out') {
        this.skipUntil = Date.now() + SKIP_AFTER_TIMEOUT_MS;
        this.changed(false, 'commands time out');
      }
      throw error;
    }
  }

  /** Starts both connections in the background; failures are retried and logged once. */
  connect(): void {
    this.commands.connect().catch(() => {});
    this.subscriber.connect().catch(() => {});
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([quit(this.commands), quit(this.subscriber)]);
  }

  private changed(reachable: boolean, reason?: string): void {
    if (this.closing || this.reachable === reachable) return;
    const before = this.reachable;
    this.reachable = reachable;
    if (!reachable) {
      this.options.logger?.warn({ reason }, `Redis at ${this.address} unreachable; redirects fall back to the database`);
    } else if (before === false) {
      this.options.logger?.info(`Redis at ${this.address} reachable again; caching resumes`);
    }
  }
}

async function quit(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  try {
    if (client.status !== 'ready') throw new Error('not connected');
    await client.quit();
  } catch {
    client.disconnect();
  }
}
