/**
 * Measuring servers against each other and printing the figures: the bare baseline and the app
 * (or several app instances at once) on the same traffic, in alternating rounds.
 */
import fs from 'node:fs';
import { prime } from './http-client.js';
import { load, loadTogether, mergeLoads, percentileMs, runWrk, type Loadgen, type RawLoad, type Traffic } from './load.js';
import { addCounts, statsOf, sumStats, type Server, type ServerStats } from './servers.js';

export interface MeasureSettings {
  readonly loadgen: Loadgen;
  /** Connections over all of a side's servers. */
  readonly connections: number;
  /** Measured seconds per side, split into `rounds`. */
  readonly seconds: number;
  readonly rounds: number;
  readonly warmupSeconds: number;
}

/** The statuses a scenario expects; everything else counts as unexpected. */
export type Expect = 'redirect' | 'not_found' | 'created';

const isExpected: Record<Expect, (status: string) => boolean> = {
  redirect: (status) => status.startsWith('3'),
  not_found: (status) => status === '404',
  created: (status) => status === '201',
};

export interface Measurement {
  readonly scenario: string;
  readonly server: string;
  readonly requestsPerSecond: number;
  readonly roundRequestsPerSecond: readonly number[];
  readonly latencyMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly p999: number; readonly max: number };
  readonly statusCounts: Readonly<Record<string, number>>;
  readonly errors: number;
  readonly timeouts: number;
  /** Responses (as counted by the server) other than the expected ones, plus the load generator's socket errors and timeouts. */
  readonly unexpected: number;
  readonly serverCpuPercent: number;
  /** Server CPU time per response: unlike req/s, barely moved by other work on the machine. */
  readonly serverCpuMicrosPerResponse: number;
  readonly loadCpuPercent: number;
  readonly eventLoopDelayP99Ms: number;
}

interface Round {
  readonly raw: RawLoad;
  readonly stats: ServerStats;
}

function summarize(scenario: string, server: string, expect: Expect, rounds: readonly Round[]): Measurement {
  const raw = mergeLoads(rounds.map((r) => r.raw));
  const statusCounts: Record<string, number> = {};
  for (const { stats } of rounds) addCounts(statusCounts, stats.statusCounts);
  const served = Object.values(statusCounts).reduce((sum, count) => sum + count, 0);
  const expected = Object.entries(statusCounts).filter(([status]) => isExpected[expect](status)).reduce((sum, [, count]) => sum + count, 0);
  const serverCpuSeconds = rounds.reduce((sum, { raw: r, stats }) => sum + stats.cpuPercent * r.durationSeconds, 0);
  const percentile = (p: number) => percentileMs(raw.latencyUs, p);
  return {
    scenario,
    server,
    requestsPerSecond: raw.responses / raw.durationSeconds,
    roundRequestsPerSecond: rounds.map((r) => r.raw.responses / r.raw.durationSeconds),
    latencyMs: { p50: percentile(50), p90: percentile(90), p99: percentile(99), p999: percentile(99.9), max: percentile(100) },
    statusCounts,
    errors: raw.errors,
    timeouts: raw.timeouts,
    unexpected: served - expected + raw.errors + raw.timeouts,
    serverCpuPercent: serverCpuSeconds / raw.durationSeconds,
    serverCpuMicrosPerResponse: rounds.reduce((sum, r) => sum + r.stats.cpuMicros, 0) / raw.responses,
    loadCpuPercent: raw.cpuPercent,
    eventLoopDelayP99Ms: Math.max(...rounds.map((r) => r.stats.eventLoopDelayP99Ms)),
  };
}

/**
 * One server, or a list loaded at the same time, one load generator an entry with its share of
 * the connections; the figures of the servers are summed (CPU per response over all of them).
 * A server may stand in the list twice: `[bare, bare]` is the bare server under two load generators.
 */
export type Side = Server | readonly Server[];

const targetsOf = (side: Side): readonly Server[] => ('child' in side ? [side] : side);
const serversOf = (side: Side): readonly Server[] => [...new Set(targetsOf(side))];

function nameOf(side: Side): string {
  const name = serversOf(side).map((s) => s.name).join(' + ');
  const generators = targetsOf(side).length;
  return generators > 1 ? `${name} (${generators} load gens)` : name;
}

async function loadSide(side: Side, traffic: Traffic, loadgen: Loadgen, connections: number, seconds: number): Promise<RawLoad> {
  const targets = targetsOf(side);
  const each = Math.max(1, Math.round(connections / targets.length));
  return loadTogether(targets.map((s) => load(s.port, traffic, { loadgen, connections: each, seconds })));
}

/**
 * Measures the bare server and the app on the same traffic. Both are warmed up first; then the
 * measured time is split into `rounds` rounds taken in ABBA order (bare, app, app, bare, …) so
 * that a slow-down from other work on the machine falls on both about equally.
 */
export async function compare(settings: MeasureSettings, scenario: string, bare: Side, app: Side, traffic: Traffic, expect: Expect, connections = settings.connections): Promise<[Measurement, Measurement]> {
  return compareAll(settings, scenario, [bare, app], traffic, expect, connections) as Promise<[Measurement, Measurement]>;
}

/** The same for any number of sides, in ABC CBA … order. */
export async function compareAll(settings: MeasureSettings, scenario: string, sides: readonly Side[], traffic: Traffic, expect: Expect, connections = settings.connections): Promise<Measurement[]> {
  const { loadgen, warmupSeconds, rounds: roundCount } = settings;
  if (warmupSeconds > 0) {
    for (const side of sides) await loadSide(side, traffic, loadgen, connections, warmupSeconds);
  }
  const rounds = new Map<Side, Round[]>(sides.map((side) => [side, []]));
  for (let round = 0; round < roundCount; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      await Promise.all(serversOf(side).map((s) => statsOf(s, true))); // CPU and event-loop delay count from here
      const raw = await loadSide(side, traffic, loadgen, connections, settings.seconds / roundCount);
      rounds.get(side)!.push({ raw, stats: sumStats(await Promise.all(serversOf(side).map((s) => statsOf(s)))) });
    }
  }
  const result = sides.map((side) => summarize(scenario, nameOf(side), expect, rounds.get(side)!));
  for (const m of result) {
    console.error(`  ${m.scenario.padEnd(36)} ${m.server.padEnd(14)} ${fmtInt(m.requestsPerSecond).padStart(7)} req/s  p99 ${fmtMs(m.latencyMs.p99)} ms  server CPU ${m.serverCpuPercent.toFixed(0)} %`);
  }
  return result;
}

/** GETs each of `codes` once; fails unless the server's in-process tier then holds all of them. */
export async function primeHot(server: Server, codes: readonly string[]): Promise<void> {
  const primed = await prime(server.port, codes);
  const { cacheSize } = await statsOf(server);
  if ((primed.get(404) ?? 0) > 0 || cacheSize < codes.length) throw new Error(`${server.name}: the hot set did not warm the in-process tier (${cacheSize} cached, ${JSON.stringify([...primed])})`);
}

/** GETs every code of the file once (wrk's walk.lua, or prime()); answers the statuses the server sent meanwhile. */
export async function walkCodes(server: Server, codesFile: string, withWrk: boolean, connections: number): Promise<Readonly<Record<string, number>>> {
  await statsOf(server, true);
  if (withWrk) {
    const run = runWrk('walk.lua', server.port, connections, 24 * 3600, [codesFile]);
    run.onLine = (line) => { if (line === 'WALK_DONE') run.stop(); };
    await run.finished;
  } else {
    await prime(server.port, fs.readFileSync(codesFile, 'utf8').split('\n').filter(Boolean), connections);
  }
  return (await statsOf(server)).statusCounts;
}

// ---------------------------------------------------------------------------------------------
// Output

export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
export const fmtMs = (n: number) => n.toFixed(2);
export const fmtMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const fmtK = (n: number) => `${(n / 1000).toFixed(1)}k`;

function statusSummary(m: Measurement): string {
  const parts = Object.entries(m.statusCounts).sort(([a], [b]) => a.localeCompare(b)).map(([s, c]) => `${s}:${c}`);
  if (m.errors) parts.push(`err:${m.errors}`);
  if (m.timeouts) parts.push(`timeout:${m.timeouts}`);
  return parts.join(' ');
}

export function printTable(rows: readonly Measurement[]): void {
  const header = ['scenario', 'server', 'req/s', 'rounds', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'unexpected', 'server CPU', 'CPU µs/resp', 'load CPU', 'statuses'];
  const lines = rows.map((row, i) => [
    i > 0 && rows[i - 1]!.scenario === row.scenario ? '' : row.scenario,
    row.server,
    fmtInt(row.requestsPerSecond),
    row.roundRequestsPerSecond.map(fmtK).join('/'),
    fmtMs(row.latencyMs.p50),
    fmtMs(row.latencyMs.p90),
    fmtMs(row.latencyMs.p99),
    fmtMs(row.latencyMs.p999),
    String(row.unexpected),
    `${row.serverCpuPercent.toFixed(0)} %`,
    row.serverCpuMicrosPerResponse.toFixed(1),
    `${row.loadCpuPercent.toFixed(0)} %`,
    statusSummary(row),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const render = (cells: string[]) => cells.map((cell, c) => (c >= 2 && c <= 11 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd();
  console.log(render(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(render(line));
}

export function verdict(ok: boolean, aim?: boolean): string {
  if (!ok) return 'MISS';
  return aim === false ? 'pass (below aim)' : 'PASS';
}

export type RatioLine = [name: string, value: string, target: string, result: string];

export function printRatioLines(lines: readonly RatioLine[]): void {
  const w = [0, 1, 2].map((c) => Math.max(...lines.map((l) => l[c]!.length)));
  for (const [name, value, target, result] of lines) {
    console.log(`${name.padEnd(w[0]!)}  ${value.padStart(w[1]!)}  ${target.padEnd(w[2]!)}  ${result}`.trimEnd());
  }
}

export const rps = (m: Measurement) => m.requestsPerSecond;
/** The app's req/s as a share of the bare server's, both measured in the same rounds. */
export const vsBare = ([bare, app]: readonly [Measurement, Measurement]) => rps(app) / rps(bare);

/** What a group of scenarios adds to the report. */
export interface BenchPart {
  readonly rows: Measurement[];
  readonly ratioLines: RatioLine[];
  readonly notes: string[];
}
export const cpu = (m: Measurement) => m.serverCpuMicrosPerResponse;
