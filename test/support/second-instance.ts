import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { createDeps, type Composition } from '../../src/deps.js';
import { postgresEnv, testConfig, type TestApp } from './test-app.js';

export interface SecondInstance {
  readonly app: FastifyInstance;
  readonly deps: Composition;
  readonly config: Config;
  close(): Promise<void>;
}

/**
 * Another app instance on the first one's database (its own connections, cache and reaper
 * instance id), sharing the first one's clock. Closing it leaves the data directory and the
 * database in place; the first instance removes them.
 */
export async function createSecondInstance(first: TestApp, env: Record<string, string> = {}): Promise<SecondInstance> {
  const config = testConfig(first.dataDir, { ...(first.postgres ? postgresEnv(first.postgres) : {}), ...env });
  const deps = await createDeps(config, { clock: first.clock });
  const app = await buildApp(deps);
  await app.ready();
  return {
    app, deps, config,
    async close() {
      await app.close();
      await deps.close();
    },
  };
}
