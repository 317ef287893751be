/**
 * Load from a process of its own (never the server's): wrk (C, one thread) with the Lua scripts
 * here, or autocannon through load.mjs. wrk drives a bare node:http server to ~30k requests/s on
 * 2 cores, where autocannon saturates its own core at 13–19k; autocannon alone can hold a fixed rate.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { nextMessage, spawnChild, SUPPORT, track } from './children.js';

export type Loadgen = 'wrk' | 'autocannon';

/** What each request asks: a random code of a file, a fresh unknown code, or a create of a new URL. */
export type Traffic =
  | { readonly codesFile: string }
  | { readonly probeLength: number }
  | { readonly create: { readonly path: string; readonly token?: string } };

export interface LoadOptions {
  readonly loadgen: Loadgen;
  readonly connections: number;
  readonly seconds: number;
  /** Requests per second over all connections (autocannon only); unset: as fast as the server answers. */
  readonly rate?: number;
}

export interface RawLoad {
  readonly type: 'result';
  readonly durationSeconds: number;
  readonly responses: number;
  /** Sparse latency histogram: [microseconds, count] pairs. */
  readonly latencyUs: readonly (readonly [number, number])[];
  readonly statusCounts: Readonly<Record<string, number>>;
  readonly errors: number;
  readonly timeouts: number;
  /** CPU the load generator itself used, as a share of one core. */
  readonly cpuPercent: number;
}

let runs = 0;
/** Tells one run's created URLs from every other run's. */
const nextNonce = () => `${process.pid}-${Date.now().toString(36)}-${++runs}`;

export function load(port: number, traffic: Traffic, options: LoadOptions): Promise<RawLoad> {
  if (options.rate !== undefined && options.loadgen === 'wrk') throw new Error('wrk cannot hold a fixed rate; use autocannon');
  return options.loadgen === 'wrk' ? loadWithWrk(port, traffic, options) : loadWithAutocannon(port, traffic, options);
}

async function loadWithAutocannon(port: number, traffic: Traffic, options: LoadOptions): Promise<RawLoad> {
  const create = 'create' in traffic ? { ...traffic.create, nonce: nextNonce() } : undefined;
  const settings = { port, connections: options.connections, seconds: options.seconds, rate: options.rate, ...traffic, create };
  const child = spawnChild(path.join(SUPPORT, 'load.mjs'), [JSON.stringify(settings)]);
  return nextMessage<RawLoad>(child, 'result', (options.seconds + 60) * 1000);
}

interface WrkResult {
  readonly requests: number;
  readonly durationUs: number;
  readonly statusErrors: number;
  readonly connect: number;
  readonly read: number;
  readonly write: number;
  readonly timeout: number;
  readonly quantilesUs: readonly number[];
}

function wrkScript(traffic: Traffic): [string, string[]] {
  if ('create' in traffic) return ['create.lua', [traffic.create.path, nextNonce(), ...(traffic.create.token ? [traffic.create.token] : [])]];
  return ['paths.lua', ['codesFile' in traffic ? traffic.codesFile : `probe:${traffic.probeLength}`]];
}

/** wrk reports only how many responses were ≥ 400 (the servers count statuses themselves). */
async function loadWithWrk(port: number, traffic: Traffic, options: LoadOptions): Promise<RawLoad> {
  const [script, args] = wrkScript(traffic);
  const run = runWrk(script, port, options.connections, options.seconds, args);
  const { output, cpuPercent } = await run.finished;
  const line = output.split('\n').find((l) => l.startsWith('WRK_RESULT '));
  if (line === undefined) throw new Error(`wrk printed no result:\n${output}`);
  const result = JSON.parse(line.slice('WRK_RESULT '.length)) as WrkResult;
  const perQuantile = result.requests / result.quantilesUs.length;
  return {
    type: 'result',
    durationSeconds: result.durationUs / 1e6,
    responses: result.requests,
    latencyUs: result.quantilesUs.map((us) => [us, perQuantile] as const),
    statusCounts: { '<400': result.requests - result.statusErrors, '≥400': result.statusErrors },
    errors: result.connect + result.read + result.write,
    timeouts: result.timeout,
    cpuPercent,
  };
}

export interface WrkRun {
  /** Called with each line wrk prints, as it prints it. */
  onLine?: (line: string) => void;
  readonly stop: () => void;
  readonly finished: Promise<{ readonly output: string; readonly cpuPercent: number }>;
}

/** Starts wrk with one of this folder's scripts; `stop()` ends it early (SIGINT: it still reports). */
export function runWrk(script: string, port: number, connections: number, seconds: number, args: readonly string[]): WrkRun {
  const child = track(spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script,
    `http://127.0.0.1:${port}/`, '--', ...args], { cwd: SUPPORT, stdio: ['ignore', 'pipe', 'inherit'] }));
  const startedAt = process.hrtime.bigint();
  let cpuTicks = 0;
  const sampler = setInterval(() => { cpuTicks = procCpuTicks(child.pid) ?? cpuTicks; }, 200);
  let output = '';
  const run: WrkRun = {
    stop: () => child.kill('SIGINT'),
    finished: new Promise((resolve, reject) => {
      child.once('exit', (code) => {
        clearInterval(sampler);
        const elapsedSeconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
        if (code !== 0) reject(new Error(`wrk failed (exit ${code}):\n${output}`));
        else resolve({ output, cpuPercent: (100 * cpuTicks) / CLOCK_TICKS / elapsedSeconds });
      });
    }),
  };
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) run.onLine?.(line);
  });
  return run;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** utime + stime of a live process, in clock ticks, from /proc (undefined once it has gone). */
function procCpuTicks(pid: number | undefined): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // fields 14 and 15 of stat(5), counted after the name
  } catch {
    return undefined;
  }
}

export function hasWrk(): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, 'wrk'), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** BENCH_LOADGEN-style choice: `auto` takes wrk when it is installed. */
export function chooseLoadgen(choice: string): Loadgen {
  if (!['auto', 'wrk', 'autocannon'].includes(choice)) throw new Error('the load generator must be wrk, autocannon or auto');
  if (choice === 'auto') return hasWrk() ? 'wrk' : 'autocannon';
  if (choice === 'wrk' && !hasWrk()) throw new Error('wrk was asked for but there is no wrk on PATH (apt-get install wrk)');
  return choice as Loadgen;
}

export function mergeLoads(results: readonly RawLoad[]): RawLoad {
  const latency = new Map<number, number>();
  const statusCounts: Record<string, number> = {};
  for (const result of results) {
    for (const [us, count] of result.latencyUs) latency.set(us, (latency.get(us) ?? 0) + count);
    for (const [status, count] of Object.entries(result.statusCounts)) statusCounts[status] = (statusCounts[status] ?? 0) + count;
  }
  const sum = (pick: (r: RawLoad) => number) => results.reduce((total, r) => total + pick(r), 0);
  const seconds = sum((r) => r.durationSeconds);
  return {
    type: 'result',
    durationSeconds: seconds,
    responses: sum((r) => r.responses),
    latencyUs: [...latency],
    statusCounts,
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    cpuPercent: sum((r) => r.cpuPercent * r.durationSeconds) / seconds,
  };
}

/**
 * Loads that ran at the same time, as one: their responses add up over the longest duration; the
 * CPU is the busiest load generator's (whether one of them ran out of core is what it tells).
 */
export async function loadTogether(runs: readonly Promise<RawLoad>[]): Promise<RawLoad> {
  const results = await Promise.all(runs);
  if (results.length === 1) return results[0]!;
  const merged = mergeLoads(results);
  return { ...merged, durationSeconds: Math.max(...results.map((r) => r.durationSeconds)), cpuPercent: Math.max(...results.map((r) => r.cpuPercent)) };
}

/** The p-th percentile (0–100) of a latency histogram, in ms. */
export function percentileMs(latencyUs: readonly (readonly [number, number])[], p: number): number {
  const sorted = [...latencyUs].sort(([a], [b]) => a - b);
  const total = sorted.reduce((sum, [, count]) => sum + count, 0);
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [us, count] of sorted) {
    seen += count;
    if (seen >= rank) return us / 1000;
  }
  return (sorted.at(-1)?.[0] ?? 0) / 1000; // wrk's fractional counts can sum to a hair below the total
}
