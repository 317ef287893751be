import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { reservePort } from './http/port-reservation.js';

/** A worker that dies sooner than this after its start is not restarted: it would only die again. */
const STEADY_AFTER_MS = 10_000;

/**
 * With WORKERS above 1 the process started by `npm start` forks that many servers and serves
 * nothing itself (docs/architecture.md, "Several processes on one file"). They share the port
 * through node:cluster, which hands each new connection to the next worker in turn, and the
 * database file, whose changes each follows. A worker that dies is replaced; SIGTERM and SIGINT
 * go to every worker, and this process exits once they have, with the worst exit code.
 */
export async function runPrimary(config: Config): Promise<void> {
  // A port already in use is reported once, here, before any worker starts.
  await (await reservePort(config.port, config.host)).release();
  let stopping = false;
  let exitCode = 0;
  const startedAt = new Map<Worker, number>();
  const fork = () => startedAt.set(cluster.fork(), Date.now());
  cluster.on('exit', (worker, code, signal) => {
    const started = startedAt.get(worker) ?? 0;
    startedAt.delete(worker);
    if (code !== 0 || signal) exitCode = Math.max(exitCode, code ?? 1);
    if (!stopping && Date.now() - started > STEADY_AFTER_MS) {
      console.error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
      fork();
    } else if (!stopping) {
      stop('a worker failed to start', 1);
    }
    if (stopping && startedAt.size === 0) process.exit(exitCode);
  });
  const stop = (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = Math.max(exitCode, code);
    if (code !== 0) console.error(`stopping every worker: ${reason}`);
    for (const worker of startedAt.keys()) worker.process.kill('SIGTERM');
    if (startedAt.size === 0) process.exit(exitCode);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < config.workers; i++) fork();
}
