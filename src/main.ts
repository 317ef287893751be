import cluster from 'node:cluster';
import fs from 'node:fs';
import { buildApp } from './app.js';
import type { FastifyBaseLogger } from 'fastify';
import { type Config, ConfigError, DataPathError, describeDatabase, loadConfig } from './config.js';
import { createDeps, type Composition } from './deps.js';
import { ConnectionDrain } from './http/connection-drain.js';
import { isListenError, PortUnavailableError, reservePort } from './http/port-reservation.js';
import { createLogging } from './logging/logger.js';
import { runPrimary } from './primary.js';
import { startHeapGovernor } from './heap-governor.js';
import { keepTickObjectShape } from './tick-object-shape.js';

/** The jobs and the flusher, once the server listens; then the ready line. */
function startBackgroundWork(config: Config, deps: Composition, log: FastifyBaseLogger): void {
  if (config.cleanup.enabled) deps.cleanup.scheduler.start(log.child({ job: 'reaper' }));
  deps.analytics?.flusher.start();
  if (config.healthcheck.enabled) deps.healthCheck.scheduler.start(log.child({ job: 'health-check' }));
  if (config.webhooks.enabled) deps.webhookJobs.scheduler.start(log.child({ job: 'webhooks' }));
  const database = describeDatabase(config.database);
  const redis = config.redisUrl ? 'on' : 'off';
  const worker = cluster.isWorker ? { worker: cluster.worker!.id } : {};
  log.info({ baseUrl: config.baseUrl, database, redis, ...worker }, `Linkforge is ready at ${config.baseUrl} (${database}, Redis ${redis})`);
}

async function main(): Promise<void> {
  keepTickObjectShape();
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig();
  const { logger, destination } = createLogging(config.logLevel);
  // Said once: by the process an operator started, not again by each of its workers.
  if (!cluster.isWorker) for (const warning of config.warnings) logger.warn(warning);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config);
  startHeapGovernor();
  // A worker's port is held by the primary, which checked it before forking (primary.ts).
  const port = cluster.isWorker ? { release: async () => undefined } : await reservePort(config.port, config.host);
  let deps: Composition;
  try {
    deps = await createDeps(config, { logger, droppedLogLines: () => destination.droppedLines });
  } finally {
    await port.release();
  }
  const drain = new ConnectionDrain();
  const app = await buildApp(deps, { logger, drain });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), config.shutdownGraceMs).unref();
    // Half the grace for clients to finish on their connections; the rest for requests still
    // running, the reaper's batch and the database.
    let exitCode = 0;
    try {
      await drain.drain(app.server, config.shutdownGraceMs / 2);
      await app.close();
      await deps.close();
    } catch (error) {
      console.error(error);
      exitCode = 1;
    }
    if (destination.droppedLines > 0) {
      console.error(`${destination.droppedLines} log lines could not be written to stdout and were dropped`);
    }
    process.exit(exitCode);
  };
  // Kept for every signal, not once: a terminal's Ctrl-C reaches `npm start` and the server alike,
  // and the copy passed on must find the drain under way, not Node's default of exiting at once.
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    await deps.close();
    throw isListenError(error) ? new PortUnavailableError(config.host, config.port, error) : error;
  }
  startBackgroundWork(config, deps, app.log);
}

main().catch((error: unknown) => {
  // Mistakes an operator can fix get their one-line message; anything else keeps its stack.
  if (error instanceof ConfigError || error instanceof PortUnavailableError || error instanceof DataPathError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
