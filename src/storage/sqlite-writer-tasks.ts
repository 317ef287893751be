import type SQLite from 'better-sqlite3';
import type { VisitBatch } from '../core/visit-ports.js';
import type { WriterTaskName } from './sqlite-writer-protocol.js';
import { recordVisitsOnWriter } from './visits/visit-writer.js';

/**
 * What each task of the writer's protocol runs on the writer thread's connection, inside a
 * transaction. A task's promise settles through microtasks only (its statements are synchronous),
 * so no message is handled in between.
 */
export const WRITER_TASKS: Record<WriterTaskName, (db: SQLite.Database, input: unknown) => Promise<void>> = {
  recordVisits: (db, input) => recordVisitsOnWriter(db, input as VisitBatch),
};
