import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { PasswordHashing } from '../../src/accounts/password-hasher.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDeps, type Composition } from '../../src/deps.js';
import { createTestDatabase, httpSuiteDatabase, type TestDatabase } from './postgres.js';
import { onTeardown, once, type TeardownScope } from './teardown.js';
import { TestClock } from './test-clock.js';

export interface TestApp {
  readonly app: FastifyInstance;
  /** The app's dependencies, with the database handle and the concrete tiers tests look into. */
  readonly deps: Composition;
  readonly config: Config;
  readonly clock: TestClock;
  readonly dataDir: string;
  /** Every SQL statement the database ran, in order; tests may reset it. */
  readonly statements: string[];
  /** The PostgreSQL database of its own, when the app runs on PostgreSQL. */
  readonly postgres?: TestDatabase;
  /** Closes the app and removes its data; the scope it was made in calls it too, so closing early is fine. */
  close(): Promise<void>;
}

/** The configuration every test app starts from: quiet, fast hashing, background jobs off, patient with Redis. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    BASE_URL: 'http://sho.rt',
    CLEANUP_ENABLED: 'false',
    HEALTHCHECK_ENABLED: 'false',
    WEBHOOKS_ENABLED: 'false',
    BCRYPT_COST: '4',
    // Two cores shared by two test files, PostgreSQL, Redis and Chromium can pause a test process
    // for longer than the 250 ms default, and Redis would look unreachable to tests that are not
    // about it; the tests about a hung Redis set their own timeout.
    REDIS_COMMAND_TIMEOUT: '2s',
    ...env,
  });
}

export interface TestAppOptions {
  /** Where the data directory goes (e.g. a small filesystem); a fresh temporary one by default. */
  readonly dataDir?: string;
  /**
   * The database: a fresh SQLite file, or a fresh PostgreSQL database of its own. By default the
   * one LINKFORGE_TEST_DATABASE names (sqlite unless set), which is how the HTTP suites run on both.
   */
  readonly database?: 'sqlite' | 'postgres';
  /** The app's logger (tests that read the log); silent by default. */
  readonly logger?: FastifyBaseLogger;
  /** bcrypt by default; a double counts comparisons (test/support/counting-hashing.ts). */
  readonly passwordHashing?: PasswordHashing;
}

/** The settings PostgreSQL mode needs, for a fresh database of its own. */
export function postgresEnv(database: TestDatabase): Record<string, string> {
  return { DATABASE_URL: database.url, JWT_SECRET: 'test-secret-test-secret-test-secret-42', DB_POOL_MIN: '0' };
}

/**
 * A real app on its own fresh database, closed when `scope` ends (a test's context, or a suite's
 * from `suiteScope()`). Background jobs are off unless the env turns them on.
 */
export async function createTestApp(scope: TeardownScope, env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-test-'));
  const postgres = (options.database ?? httpSuiteDatabase()) === 'postgres' && env.DATABASE_URL === undefined
    ? await createTestDatabase()
    : undefined;
  // Each part is handed to the scope as soon as it exists, so that a failed start leaves nothing behind;
  // the scope closes them last made first: the app, its dependencies, its files, its database.
  const dropDatabase = once(async () => postgres?.drop());
  const removeFiles = once(async () => { if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true }); });
  onTeardown(scope, dropDatabase);
  onTeardown(scope, removeFiles);
  const config = testConfig(dataDir, { ...(postgres ? postgresEnv(postgres) : {}), ...env });
  const clock = new TestClock();
  const statements: string[] = [];
  const deps = await createDeps(config, { clock, onStatement: (sql) => statements.push(sql), passwordHashing: options.passwordHashing });
  const closeDeps = once(() => deps.close());
  onTeardown(scope, closeDeps);
  const app = await buildApp(deps, { logger: options.logger });
  const closeApp = once(() => app.close());
  onTeardown(scope, closeApp);
  await app.ready();
  const close = once(async () => {
    await closeApp();
    await closeDeps();
    await removeFiles();
    await dropDatabase();
  });
  return { app, deps, config, clock, dataDir, statements, postgres, close };
}
