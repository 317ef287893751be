import type { Command } from 'commander';
import { LinkforgeError } from '../../core/errors.js';
import type { CleanupJobs } from '../../jobs/cleanup-jobs.js';
import { getGlobalStats, type StatsDeps } from '../../links/get-global-stats.js';
import { withDeps } from '../cli-context.js';

const iso = (ms: number | null) => (ms === null ? 'never' : new Date(ms).toISOString());

const cliLog = { info: () => {}, error: (_: object, message: string) => console.error(`linkforge: ${message}`) };

/** Runs the reaper on its CLEANUP_INTERVAL schedule until SIGINT or SIGTERM. */
async function runCleanupOnSchedule(cleanup: CleanupJobs): Promise<void> {
  cleanup.scheduler.start(cliLog);
  console.error('linkforge: the reaper runs on its schedule; stop with Ctrl-C');
  // The scheduler's timers do not hold the process open (the server's listener does that): this does.
  const keepAlive = setInterval(() => {}, 2 ** 30);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(keepAlive);
}

/** One run now; a run that another holds the lock for, or that fails, is the command's failure. */
async function runCleanupOnce(cleanup: CleanupJobs): Promise<void> {
  const result = await cleanup.job.run({ trigger: 'manual', log: cliLog });
  if (result.outcome === 'locked') throw new LinkforgeError('cleanup_locked', `Another run holds the reaper's lock${result.holder ? ` (${result.holder.lockedBy} until ${iso(result.holder.lockUntil)})` : ''}.`);
  if (result.outcome === 'stopping') throw new LinkforgeError('server_shutting_down');
  console.log(`Cleanup ${result.status}: ${result.markedExpired} marked expired, ${result.purged} purged, ${result.archived} archived, ${result.visitsDeleted} old visits deleted in ${result.durationMs} ms`);
  if (result.status === 'failed') throw new Error(`the cleanup run failed: ${result.error}`);
}

/** The global counters and the reaper's record, as text or JSON. */
async function printStats(statsDeps: StatsDeps, cleanupJobs: CleanupJobs, json: boolean): Promise<void> {
  const stats = await getGlobalStats(statsDeps);
  const cleanup = await cleanupJobs.stats();
  if (json) {
    console.log(JSON.stringify({ ...stats, cleanup }, null, 2));
    return;
  }
  console.log([
    `Active links:    ${stats.totalLinks}`,
    `Redirects:       ${stats.totalRedirects} (${stats.redirects.human} human, ${stats.redirects.bot} bot, ${stats.redirects.preview} preview)`,
    `Avg latency:     ${stats.avgLatencyMs.toFixed(3)} ms`,
    `Cleanup runs:    ${cleanup.successfulRuns} succeeded, ${cleanup.failedRuns} failed; last ${iso(cleanup.lastCleanupTime)}; ${cleanup.totalCleaned} links purged in all`,
  ].join('\n'));
}

export function registerOperationsCommands(program: Command): void {
  program.command('serve')
    .description('start the HTTP server, exactly as `npm start` does')
    .action(async () => {
      // main.ts starts the server when loaded and handles its own signals and exit.
      await import('../../main.js');
    });

  program.command('migrate')
    .description('bring the database schema up to date (SQLite file, or DATABASE_URL), then exit')
    .action(async () => {
      await withDeps(async ({ config }) => {
        console.log(`The ${config.database.kind === 'sqlite' ? `SQLite database ${config.database.path}` : 'PostgreSQL database'} is at the latest schema.`);
      });
    });

  program.command('cleanup')
    .description('run the reaper: mark expired links, purge deleted ones (with --once: one run, then exit)')
    .option('--once', 'one run now, then exit (without it, run on the CLEANUP_INTERVAL schedule until stopped)')
    .action(async (options: { once?: boolean }) => {
      await withDeps(({ cleanup }) => (options.once ? runCleanupOnce(cleanup) : runCleanupOnSchedule(cleanup)));
    });

  program.command('stats')
    .description('print the global counters and the reaper\'s record')
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }) => {
      await withDeps((deps) => printStats(deps.stats, deps.cleanup, options.json ?? false));
    });
}
