import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createDeps, type AppDeps } from '../../src/deps.js';
import type { TestApp } from './test-app.js';

export interface SecondInstance {
  readonly app: FastifyInstance;
  readonly deps: AppDeps;
  readonly config: Config;
  close(): Promise<void>;
}

/**
 * Another app instance on the first one's database file (its own connection, cache and reaper
 * instance id), sharing the first one's clock. Closing it leaves the data directory in place;
 * the first instance removes it.
 */
export async function createSecondInstance(first: TestApp, env: Record<string, string> = {}): Promise<SecondInstance> {
  const config = loadConfig({
    DATA_DIR: first.dataDir,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    BASE_URL: 'http://sho.rt',
    CLEANUP_ENABLED: 'false',
    HEALTHCHECK_ENABLED: 'false',
    BCRYPT_COST: '4',
    ...env,
  });
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
