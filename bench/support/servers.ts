/**
 * Servers run as children that speak the IPC protocol of app-server.mjs (also bare-server.mjs
 * and bare-create-server.mjs): `ready` with the port, `stats` on request, `stop`.
 */
import type { ChildProcess } from 'node:child_process';
import { nextMessage, spawnChild, stopChild, type ChildOptions } from './children.js';

export interface Server {
  readonly name: string;
  readonly child: ChildProcess;
  readonly port: number;
  /** Every response by status since the server started, whatever was reset in between. */
  readonly served: Record<string, number>;
}

export interface ServerStats {
  readonly type: 'stats';
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly cacheSize: number;
  readonly eventLoopDelayP99Ms: number;
  readonly eventLoopDelayMaxMs: number;
  /** Visits the app's analytics buffer dropped since it started (the app only, with analytics on). */
  readonly droppedVisits?: number;
  readonly cpuPercent: number;
  readonly cpuMicros: number;
  /** Responses by status, counted by the server itself (a writeHead probe) since the last reset. */
  readonly statusCounts: Readonly<Record<string, number>>;
}

export async function startServer(name: string, script: string, args: string[], options: ChildOptions): Promise<Server> {
  const child = spawnChild(script, args, options);
  const ready = await nextMessage<{ type: 'ready'; port: number }>(child, 'ready', 60_000);
  return { name, child, port: ready.port, served: {} };
}

/** The server's figures since the last reset; `reset` starts the next period. */
export async function statsOf(server: Server, reset = false): Promise<ServerStats> {
  const reply = nextMessage<ServerStats>(server.child, 'stats', 10_000);
  server.child.send({ type: 'stats', reset });
  const stats = await reply;
  if (reset) addCounts(server.served, stats.statusCounts);
  return stats;
}

/** Responses of `status` since the server started. */
export async function servedCount(server: Server, status: string): Promise<number> {
  await statsOf(server, true);
  return server.served[status] ?? 0;
}

/** SIGKILL: what the server acknowledged must be on disk even when it gets no chance to close. */
export async function killServer(server: Server): Promise<void> {
  await stopChild(server.child, 'SIGKILL');
}

export function addCounts(into: Record<string, number>, counts: Readonly<Record<string, number>>): void {
  for (const [status, count] of Object.entries(counts)) into[status] = (into[status] ?? 0) + count;
}

/** Several servers' figures over the same period, as one: CPU and counts add up, the worst delay counts. */
export function sumStats(all: readonly ServerStats[]): ServerStats {
  if (all.length === 1) return all[0]!;
  const sum = (pick: (s: ServerStats) => number) => all.reduce((total, s) => total + pick(s), 0);
  const statusCounts: Record<string, number> = {};
  for (const stats of all) addCounts(statusCounts, stats.statusCounts);
  return {
    type: 'stats',
    rssBytes: sum((s) => s.rssBytes),
    heapUsedBytes: sum((s) => s.heapUsedBytes),
    cacheSize: sum((s) => s.cacheSize),
    eventLoopDelayP99Ms: Math.max(...all.map((s) => s.eventLoopDelayP99Ms)),
    eventLoopDelayMaxMs: Math.max(...all.map((s) => s.eventLoopDelayMaxMs)),
    droppedVisits: sum((s) => s.droppedVisits ?? 0),
    cpuPercent: sum((s) => s.cpuPercent),
    cpuMicros: sum((s) => s.cpuMicros),
    statusCounts,
  };
}

/** The app's settings in every bench: production, quiet, its own data dir, no network traffic. */
export function appSettings(dataDir: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    BASE_URL: 'http://localhost:8080',
    LOG_LEVEL: 'warn',
    HEALTHCHECK_ENABLED: 'false', // it would check destinations over the network
    RATE_LIMIT_API: '0', // one load generator is one caller: its owned creates or imports would meet the per-caller API limit
    ...extra,
  };
}
