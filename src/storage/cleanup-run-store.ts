import type { Kysely } from 'kysely';
import type { CleanupRunStore, CleanupRunSummary, FinishedCleanupRun, RecordedCleanupRun } from '../core/cleanup-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

const count = (value: unknown) => Number(value ?? 0);

/** `cleanup_runs`: the statistics survive restarts and are shared by every instance. */
export class KyselyCleanupRunStore implements CleanupRunStore {
  constructor(private readonly db: Kysely<Database>) {}

  startRun(instance: string, startedAt: number): Promise<number> {
    return guarded(async () => {
      const row = await this.db.insertInto('cleanup_runs').values({
        instance,
        started_at: startedAt,
        finished_at: null,
        status: 'running',
        marked_expired: 0,
        purged: 0,
        archived: 0,
        visits_deleted: 0,
        batches: 0,
        last_batch_size: 0,
        duration_ms: null,
        error: null,
      }).returning('id').executeTakeFirstOrThrow();
      return Number(row.id);
    });
  }

  finishRun(id: number, run: FinishedCleanupRun): Promise<void> {
    return guarded(async () => {
      await this.db.updateTable('cleanup_runs').set({
        status: run.status,
        finished_at: run.finishedAt,
        duration_ms: run.durationMs,
        marked_expired: run.markedExpired,
        purged: run.purged,
        archived: run.archived,
        visits_deleted: run.visitsDeleted,
        batches: run.batches,
        last_batch_size: run.lastBatchSize,
        error: run.error,
      }).where('id', '=', id).execute();
    });
  }

  failAbandonedRuns(startedAtOrBefore: number, now: number, error: string): Promise<number> {
    return guarded(async () => {
      const result = await this.db.updateTable('cleanup_runs')
        .set({ status: 'failed', finished_at: now, error })
        .where('status', '=', 'running')
        .where('started_at', '<=', startedAtOrBefore)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    });
  }

  hasRunningRun(instance: string, since: number): Promise<boolean> {
    return guarded(async () => {
      const row = await this.db.selectFrom('cleanup_runs').select('id')
        .where('instance', '=', instance)
        .where('status', '=', 'running')
        .where('started_at', '>=', since)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    });
  }

  summarize(): Promise<CleanupRunSummary> {
    return guarded(async () => {
      const totals = await this.db.selectFrom('cleanup_runs')
        .select((eb) => [
          eb.fn.count(eb.case().when('status', '=', 'succeeded').then(1).end()).as('successful_runs'),
          eb.fn.count(eb.case().when('status', '=', 'failed').then(1).end()).as('failed_runs'),
          eb.fn.sum('purged').as('purged'),
          eb.fn.sum('marked_expired').as('marked_expired'),
          eb.fn.sum('archived').as('archived'),
          eb.fn.sum('visits_deleted').as('visits_deleted'),
          eb.fn.avg(eb.case().when('status', '=', 'succeeded').then(eb.ref('duration_ms')).end()).as('average_ms'),
        ])
        .executeTakeFirstOrThrow();
      const last = await this.db.selectFrom('cleanup_runs')
        .select(['finished_at', 'last_batch_size'])
        .where('finished_at', 'is not', null)
        .orderBy('started_at', 'desc').orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return {
        successfulRuns: count(totals.successful_runs),
        failedRuns: count(totals.failed_runs),
        totalPurged: count(totals.purged),
        totalMarkedExpired: count(totals.marked_expired),
        totalArchived: count(totals.archived),
        totalVisitsDeleted: count(totals.visits_deleted),
        averageDurationMs: totals.average_ms === null || totals.average_ms === undefined ? null : Number(totals.average_ms),
        lastFinished: last && { finishedAt: Number(last.finished_at), lastBatchSize: Number(last.last_batch_size) },
      };
    });
  }

  listRecentRuns(limit: number): Promise<RecordedCleanupRun[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('cleanup_runs').selectAll()
        .orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map((row) => ({
        id: Number(row.id),
        instance: row.instance,
        status: row.status,
        startedAt: Number(row.started_at),
        finishedAt: row.finished_at === null ? null : Number(row.finished_at),
        durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
        markedExpired: count(row.marked_expired),
        purged: count(row.purged),
        archived: count(row.archived),
        visitsDeleted: count(row.visits_deleted),
        batches: count(row.batches),
        lastBatchSize: count(row.last_batch_size),
        error: row.error,
      }));
    });
  }
}
