import type { Composition } from '../../src/deps.js';
import type { CleanupRunReport } from '../../src/jobs/cleanup-job.js';
import { observeCleanup } from '../../test/support/cleanup-observer.js';
import { mergeLoads, percentileMs, type RawLoad } from './load.js';

/** The cleanup bench's load windows (bench/reaper.ts): redirects of live codes, creates beside them, and how they fared. */

export interface Window {
  readonly label: 'baseline' | 'baseline + creates' | 'mark' | 'purge';
  readonly redirects: RawLoad;
  readonly creates?: RawLoad;
  readonly loopP99: number;
  readonly loopMax: number;
}

function summarize(result: RawLoad, expected: (status: string) => boolean) {
  const bad = Object.entries(result.statusCounts).filter(([status]) => !expected(status)).reduce((sum, [, n]) => sum + n, 0);
  return {
    rps: result.responses / result.durationSeconds,
    responses: result.responses,
    p50: percentileMs(result.latencyUs, 50),
    p99: percentileMs(result.latencyUs, 99),
    max: percentileMs(result.latencyUs, 100),
    bad: bad + result.errors + result.timeouts,
  };
}
export const redirectsOf = (windows: readonly Window[]) => summarize(mergeLoads(windows.map((w) => w.redirects)), (s) => s.startsWith('3'));
export const createsOf = (windows: readonly Window[]) => summarize(mergeLoads(windows.flatMap((w) => w.creates ?? [])), (s) => s === '201');

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** One line per group of windows: redirects, the event loop's delay and, when there were any, creates made every `createIntervalMs`. */
export function printLoadTable(rows: ReadonlyArray<readonly [string, readonly Window[]]>, createIntervalMs: number): void {
  console.log(`${' '.repeat(35)}redirects of live codes${' '.repeat(31)}|  creates (every ${createIntervalMs} ms)`);
  console.log(`${' '.repeat(34)}req/s    p50 ms   p99 ms   max ms  non-3xx/err  loop p99/max ms |    sent   p50 ms   p99 ms  non-201/err`);
  for (const [name, windows] of rows) {
    if (windows.length === 0) continue;
    const s = redirectsOf(windows);
    const loop = `${fmt(Math.max(...windows.map((w) => w.loopP99)), 1)} / ${fmt(Math.max(...windows.map((w) => w.loopMax)), 1)}`;
    const withCreates = windows.some((w) => w.creates);
    const c = withCreates ? createsOf(windows) : undefined;
    const creates = c ? `${fmt(c.responses).padStart(7)} ${fmt(c.p50, 2).padStart(8)} ${fmt(c.p99, 2).padStart(8)} ${String(c.bad).padStart(12)}` : '      —';
    console.log(`  ${name.padEnd(30)} ${fmt(s.rps).padStart(7)} ${fmt(s.p50, 2).padStart(9)} ${fmt(s.p99, 2).padStart(8)} ${fmt(s.max, 1).padStart(8)} ${String(s.bad).padStart(12)}  ${loop.padStart(15)} | ${creates}`);
  }
}

export interface RunTiming {
  readonly runMs: number;
  readonly markMs: number;
  readonly purgeMs: number;
  /** From the run's start to the end of the last load window. */
  readonly loadMs: number;
}

/**
 * One cleanup run while load windows follow one another for as long as it lasts, each labelled
 * with the phase it started in (watched through the job's store, test/support/cleanup-observer.ts).
 */
export async function runUnderLoad(
  deps: Composition, measure: (phase: 'mark' | 'purge') => Promise<Window>,
): Promise<{ run: CleanupRunReport; timing: RunTiming; during: Window[] }> {
  let phase: 'mark' | 'purge' = 'mark';
  const phaseStarts: Partial<Record<'mark' | 'purge', number>> = {};
  observeCleanup(deps.cleanup, {
    beforeBatch: (event) => {
      // This bench seeds no analytics: each of those phases is one empty batch.
      if (event.phase !== 'mark' && event.phase !== 'purge') return;
      if (event.batch === 1) phaseStarts[event.phase] = performance.now();
      phase = event.phase;
    },
  });
  const started = performance.now();
  let finishedAt: number | undefined;
  const running = deps.cleanup.job.run({ trigger: 'manual' }).finally(() => { finishedAt = performance.now(); });
  const during: Window[] = [];
  while (finishedAt === undefined) {
    during.push(await measure(phase));
    console.log(`  load window ${during.length} (${during.at(-1)!.label} phase): redirect p99 ${fmt(redirectsOf(during.slice(-1)).p99, 2)} ms`);
  }
  const loadEndedAt = performance.now();
  const result = await running;
  if (result.outcome !== 'ran') throw new Error(`the cleanup job did not run: ${result.outcome}`);
  const timing = {
    runMs: finishedAt - started,
    markMs: (phaseStarts.purge ?? finishedAt) - (phaseStarts.mark ?? started),
    purgeMs: phaseStarts.purge === undefined ? 0 : finishedAt - phaseStarts.purge,
    loadMs: loadEndedAt - started,
  };
  return { run: result, timing, during };
}
