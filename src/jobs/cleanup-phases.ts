import type { CleanupStore, MarkCursor, RetentionBatchRequest, RunTotals } from '../core/cleanup-ports.js';
import type { LinkCacheInvalidator } from '../core/ports.js';
import type { StopReason } from './exclusive-job.js';

export interface CleanupSettings {
  readonly batchSize: number;
  readonly batchPauseMs: number;
  readonly maxDurationMs: number;
  readonly retentionMs: number;
  readonly bufferMs: number;
  readonly archive: boolean;
  readonly lockAtMostMs: number;
  readonly visitsRetentionMs: number;
  readonly rollupRetentionMs: number;
  readonly webhookDeliveryRetentionMs: number;
}

/** A run's totals while it adds to them. */
export type RunTally = { -readonly [K in keyof RunTotals]: RunTotals[K] };

export function emptyTally(): RunTally {
  return { markedExpired: 0, purged: 0, archived: 0, visitsDeleted: 0, factsDeleted: 0, rollupsDeleted: 0, webhookDeliveriesDeleted: 0, batches: 0, lastBatchSize: 0 };
}

/** What the phases of one run share. */
export interface CleanupRun {
  readonly store: CleanupStore;
  readonly cache: Pick<LinkCacheInvalidator, 'markGone'>;
  readonly settings: CleanupSettings;
  /** When the run started: expiry and every cutoff are judged against it. */
  readonly now: number;
  readonly tally: RunTally;
  /** Why to stop now (shutdown, time limit), or null. */
  readonly stopReason: () => StopReason | null;
  /** Between two full batches: waits CLEANUP_BATCH_PAUSE unless told to stop, and answers why to stop, if so. */
  readonly pause: () => Promise<StopReason | null>;
}

const FACTS_GRACE_MS = 24 * 3_600_000;

/**
 * The run's steps in order: mark expired links, purge old ones, delete raw visits past their
 * retention, then the visit facts no visit uses any more, then roll-ups past theirs. A step that
 * stops early (shutdown, time limit) leaves the later ones for the next run.
 */
export async function runCleanupPhases(run: CleanupRun): Promise<StopReason | null> {
  return await markPhase(run) ?? await purgePhase(run) ?? await retentionPhases(run);
}

/**
 * ACTIVE links past their expiry become EXPIRED and their cache entries tombstones. A time limit
 * reached during the last batch still stops the run: the purge waits for a run that finishes marking.
 */
async function markPhase(run: CleanupRun): Promise<StopReason | null> {
  const { store, cache, settings, now, tally } = run;
  let cursor: MarkCursor | undefined;
  for (;;) {
    const result = await store.markExpiredBatch({ now, limit: settings.batchSize, after: cursor });
    await Promise.all(result.links.map((link) => cache.markGone(link.domain, link.code, 'EXPIRED')));
    cursor = result.cursor;
    count(tally, result.links.length);
    tally.markedExpired += result.links.length;
    if (result.links.length < settings.batchSize) return run.stopReason();
    const stop = await run.pause();
    if (stop) return stop;
  }
}

/** EXPIRED and DELETED links older than now - max(CLEANUP_RETENTION, CLEANUP_BUFFER) go, archived first with CLEANUP_ARCHIVE. */
function purgePhase(run: CleanupRun): Promise<StopReason | null> {
  const { store, settings, now, tally } = run;
  const cutoff = now - Math.max(settings.retentionMs, settings.bufferMs);
  return inBatches(run, async () => {
    const result = await store.purgeBatch({ cutoff, limit: settings.batchSize, archivedAt: settings.archive ? now : undefined });
    count(tally, result.purged);
    tally.purged += result.purged;
    tally.archived += result.archived;
    return result.purged;
  });
}

/**
 * Raw visits are kept VISITS_RETENTION. Facts go once the visits phase has deleted every visit
 * past the cutoff, a day after their last use passed it: a visit may sit behind a newer one in id
 * order by a flush's delay (ADR 0016), and the visits phase deletes it only on a later run.
 * Roll-ups are kept ROLLUP_RETENTION (ADR 0021). The counters they all add up to stay for good.
 * Finished webhook deliveries are kept WEBHOOK_DELIVERY_RETENTION after their event (ADR 0035).
 */
async function retentionPhases(run: CleanupRun): Promise<StopReason | null> {
  const { store, settings, now } = run;
  const visitsBefore = now - settings.visitsRetentionMs;
  return await deleteOlderRows(run, visitsBefore, 'visitsDeleted', (request) => store.deleteVisitsBatch(request))
    ?? await deleteOlderRows(run, visitsBefore - FACTS_GRACE_MS, 'factsDeleted', (request) => store.deleteUnusedFactsBatch(request))
    ?? await deleteOlderRows(run, now - settings.rollupRetentionMs, 'rollupsDeleted', (request) => store.deleteRollupsBatch(request))
    ?? await deleteOlderRows(run, now - settings.webhookDeliveryRetentionMs, 'webhookDeliveriesDeleted', (request) => store.deleteFinishedWebhookDeliveriesBatch(request));
}

/** Deletes rows of one analytics table from before `before` in batches, adding them to `total`. */
function deleteOlderRows(
  run: CleanupRun, before: number, total: 'visitsDeleted' | 'factsDeleted' | 'rollupsDeleted' | 'webhookDeliveriesDeleted',
  deleteBatch: (request: RetentionBatchRequest) => Promise<number>,
): Promise<StopReason | null> {
  return inBatches(run, async () => {
    const rows = await deleteBatch({ before, limit: run.settings.batchSize });
    count(run.tally, rows);
    run.tally[total] += rows;
    return rows;
  });
}

/** Runs `batch` until one changes fewer rows than a full batch, pausing between batches. */
async function inBatches(run: CleanupRun, batch: () => Promise<number>): Promise<StopReason | null> {
  for (;;) {
    if (await batch() < run.settings.batchSize) return null;
    const stop = await run.pause();
    if (stop) return stop;
  }
}

function count(tally: RunTally, rows: number): void {
  if (rows === 0) return;
  tally.batches += 1;
  tally.lastBatchSize = rows;
}
