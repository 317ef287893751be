import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CleanupLockedError, CleanupStoppingError } from '../../jobs/cleanup-errors.js';
import type { CleanupJobs } from '../../jobs/cleanup-jobs.js';
import type { CleanupStats } from '../../jobs/cleanup-stats.js';
import type { CleanupRunReport } from '../../jobs/cleanup-job.js';
import type { RecordedCleanupRun } from '../../core/cleanup-ports.js';
import { adminOnly } from '../admin-guard.js';
import { JWT_SECURITY } from '../auth.js';
import type { RouteContext } from '../route-context.js';
import { errorResponses } from '../schemas.js';

const Count = Type.Integer({ minimum: 0 });
const Timestamp = Type.String({ format: 'date-time' });

/** The cleanup statistics, field for field, in the snake_case they were first published in (ADR 0005). */
const CleanupStatsJson = Type.Object({
  last_cleanup_time: Type.Union([Timestamp, Type.Null()], { description: 'When the last finished run (succeeded or failed) ended.' }),
  total_cleaned: Type.Integer({ minimum: 0, description: 'Links purged over all runs.' }),
  last_batch_size: Type.Integer({ minimum: 0, description: 'Rows of the last non-empty batch of the last finished run.' }),
  successful_runs: Count,
  failed_runs: Count,
  average_cleanup_ms: Type.Number({ minimum: 0, description: 'Mean duration of successful runs.' }),
  is_running: Type.Boolean({ description: 'A run is in progress on the instance holding the lock.' }),
  total_marked_expired: Count,
  total_archived: Count,
  total_visits_deleted: Type.Integer({ minimum: 0, description: 'Raw visits deleted for being older than VISITS_RETENTION, over all runs.' }),
}, { additionalProperties: false });

/** What a run changed, as both a run's outcome and a recorded run spell it. */
const RunTotalsJson = {
  marked_expired: Count,
  purged: Count,
  archived: Count,
  visits_deleted: Count,
  batches: Count,
  last_batch_size: Count,
  error: Type.Union([Type.String(), Type.Null()]),
};

const CleanupRunJson = Type.Object({
  status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
  run_id: Type.Union([Type.Integer(), Type.Null()]),
  instance: Type.String(),
  started_at: Timestamp,
  finished_at: Timestamp,
  duration_ms: Count,
  ...RunTotalsJson,
  stopped_early: Type.Union([Type.Literal('time_limit'), Type.Literal('shutdown'), Type.Null()]),
}, { additionalProperties: false });

/** One recorded run, running ones included (their end and duration are null). */
const RecordedRunJson = Type.Object({
  id: Type.Integer(),
  instance: Type.String(),
  status: Type.Union([Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]),
  started_at: Timestamp,
  finished_at: Type.Union([Timestamp, Type.Null()]),
  duration_ms: Type.Union([Count, Type.Null()]),
  ...RunTotalsJson,
}, { additionalProperties: false });

const iso = (ms: number) => new Date(ms).toISOString();

function recordedRunToJson(run: RecordedCleanupRun) {
  return {
    id: run.id, instance: run.instance, status: run.status, started_at: iso(run.startedAt),
    finished_at: run.finishedAt === null ? null : iso(run.finishedAt), duration_ms: run.durationMs,
    marked_expired: run.markedExpired, purged: run.purged, archived: run.archived, visits_deleted: run.visitsDeleted,
    batches: run.batches, last_batch_size: run.lastBatchSize, error: run.error,
  };
}

function statsToJson(stats: CleanupStats) {
  return {
    last_cleanup_time: stats.lastCleanupTime === null ? null : iso(stats.lastCleanupTime),
    total_cleaned: stats.totalCleaned,
    last_batch_size: stats.lastBatchSize,
    successful_runs: stats.successfulRuns,
    failed_runs: stats.failedRuns,
    average_cleanup_ms: stats.averageCleanupMs,
    is_running: stats.isRunning,
    total_marked_expired: stats.totalMarkedExpired,
    total_archived: stats.totalArchived,
    total_visits_deleted: stats.totalVisitsDeleted,
  };
}

function runToJson(run: CleanupRunReport) {
  return {
    status: run.status,
    run_id: run.runId ?? null,
    instance: run.instance,
    started_at: iso(run.startedAt),
    finished_at: iso(run.finishedAt),
    duration_ms: run.durationMs,
    marked_expired: run.markedExpired,
    purged: run.purged,
    archived: run.archived,
    visits_deleted: run.visitsDeleted,
    batches: run.batches,
    last_batch_size: run.lastBatchSize,
    stopped_early: run.stoppedEarly,
    error: run.error,
  };
}

export function registerAdminCleanupRoutes(app: FastifyInstance, cleanup: CleanupJobs, context: RouteContext): void {
  // A manual run in progress stops after its batch, so closing the server never waits minutes for it.
  app.addHook('preClose', async () => cleanup.job.requestStop());
  const onRequest = adminOnly(context.guards);

  app.get('/api/admin/cleanup/stats', {
    onRequest,
    schema: {
      operationId: 'getCleanupStats',
      summary: 'Reaper statistics, from every run of every instance',
      description: 'Site admins only; anyone else gets the 404 of an unknown route.',
      tags: ['admin'],
      security: JWT_SECURITY,
      response: { 200: CleanupStatsJson, ...errorResponses(404, 503) },
    },
  }, async () => statsToJson(await cleanup.stats()));

  app.post('/api/admin/cleanup/run', {
    onRequest,
    schema: {
      operationId: 'runCleanup',
      summary: 'Run the reaper now, if no other run holds its lock',
      description: '200 with the outcome of the run (a failed run is reported, not thrown); 409 `cleanup_locked` while the lock is held. Site admins only; anyone else gets 404.',
      tags: ['admin'],
      security: JWT_SECURITY,
      response: { 200: CleanupRunJson, ...errorResponses(404, 409, 503) },
    },
  }, async (request) => {
    const result = await cleanup.job.run({ trigger: 'manual', log: request.log });
    if (result.outcome === 'locked') throw new CleanupLockedError(result.holder);
    if (result.outcome === 'stopping') throw new CleanupStoppingError();
    return runToJson(result);
  });

  app.withTypeProvider<TypeBoxTypeProvider>().get('/api/admin/cleanup/runs', {
    onRequest,
    schema: {
      operationId: 'listCleanupRuns',
      summary: 'The most recent reaper runs of every instance, newest first',
      description: 'Site admins only; anyone else gets 404.',
      tags: ['admin'],
      security: JWT_SECURITY,
      querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(RecordedRunJson) }), ...errorResponses(404, 503) },
    },
  }, async (request) => ({ items: (await cleanup.runs.listRecentRuns(request.query.limit ?? 20)).map(recordedRunToJson) }));
}
