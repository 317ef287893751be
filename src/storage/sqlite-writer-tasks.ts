import type SQLite from 'better-sqlite3';
import type { AnalyticsBatch } from '../core/analytics-ports.js';
import { batchSlices } from './analytics-batch-slices.js';
import { recordAnalyticsOnWriter } from './analytics-writer-task.js';
import type { WriterTaskName } from './sqlite-writer-protocol.js';

/** What each task of the writer's protocol runs on the writer thread's connection, inside a transaction. */
export const WRITER_TASKS: Record<WriterTaskName, (db: SQLite.Database, input: unknown) => void> = {
  recordAnalytics: (db, input) => {
    for (const slice of batchSlices(input as AnalyticsBatch)) recordAnalyticsOnWriter(db, slice);
  },
};
