import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { createDeps, type Composition } from '../../src/deps.js';
import { onTeardown, once, type TeardownScope } from './teardown.js';
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
 * database in place; the first instance removes them. Made after the first, it closes before it
 * when they share `scope`.
 */
export async function createSecondInstance(scope: TeardownScope, first: TestApp, env: Record<string, string> = {}): Promise<SecondInstance> {
  const config = testConfig(first.dataDir, { ...(first.postgres ? postgresEnv(first.postgres) : {}), ...env });
  const deps = await createDeps(config, { clock: first.clock });
  const closeDeps = once(() => deps.close());
  onTeardown(scope, closeDeps);
  const app = await buildApp(deps);
  const closeApp = once(() => app.close());
  onTeardown(scope, closeApp);
  await app.ready();
  const close = once(async () => {
    await closeApp();
    await closeDeps();
  });
  return { app, deps, config, close };
}
