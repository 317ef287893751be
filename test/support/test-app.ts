import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDeps, type Composition } from '../../src/deps.js';
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
  close(): Promise<void>;
}

/** The configuration every test app starts from: quiet, fast hashing, background jobs off. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    BASE_URL: 'http://sho.rt',
    CLEANUP_ENABLED: 'false',
    HEALTHCHECK_ENABLED: 'false',
    BCRYPT_COST: '4',
    ...env,
  });
}

/**
 * A real app on its own fresh SQLite file (in `options.dataDir` when given, e.g. a small
 * filesystem). Background jobs are off unless the env turns them on.
 */
export async function createTestApp(env: Record<string, string> = {}, options: { dataDir?: string } = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-test-'));
  const config = testConfig(dataDir, env);
  const clock = new TestClock();
  const statements: string[] = [];
  const deps = await createDeps(config, { clock, onStatement: (sql) => statements.push(sql) });
  const app = await buildApp(deps);
  await app.ready();
  return {
    app, deps, config, clock, dataDir, statements,
    async close() {
      await app.close();
      await deps.close();
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
