import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { onTeardown, type TeardownScope } from './teardown.js';

/** The machine's shared Redis; tests keep to a key prefix of their own on it and never stop it. */
export const REDIS_SERVER = process.env.LINKFORGE_TEST_REDIS ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test file uses, so that files can run side by side on one Redis. */
export function freshKeyPrefix(): string {
  return `test:${crypto.randomBytes(6).toString('hex')}:`;
}

/** A plain client for looking into Redis from a test (offline queue on: it waits for the connection). */
export function testRedisClient(url = REDIS_SERVER): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1 });
}

/** Every key under `prefix`, as a test sees them. */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...found);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/** Removes what a test file left under its prefix. */
export async function deleteKeysUnder(prefix: string, url = REDIS_SERVER): Promise<void> {
  const client = testRedisClient(url);
  try {
    const keys = await keysUnder(client, prefix);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}

export interface PrivateRedis {
  readonly port: number;
  readonly url: string;
  /** Stops the server by its PID (SIGKILL: a crash, nothing saved) and waits for it to exit; the scope it was started in calls it too. */
  stop(): Promise<void>;
  /** Starts it again on the same port (nothing to do while it runs). */
  start(): Promise<void>;
}

/**
 * A redis-server process of the test's own on a free loopback port, with nothing persisted, so
 * that a test can stop it without touching the shared Redis. Stopped when `scope` ends.
 */
export async function startPrivateRedis(scope: TeardownScope): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const start = async () => {
    if (running()) return;
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitForPing(`redis://127.0.0.1:${port}`);
  };
  const stop = async () => {
    const server = child;
    if (!server || !running()) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(server.pid!, 'SIGKILL');
    await exited;
  };
  onTeardown(scope, stop);
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, start, stop };
}

async function waitForPing(url: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      client.disconnect();
    }
  }
}

/** Polls `check` until it holds or `withinMs` has passed; answers whether it held. */
export async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
