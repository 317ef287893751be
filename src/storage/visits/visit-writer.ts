import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { VisitBatch, VisitWriter } from '../../core/visit-ports.js';
import type { OpenDatabase } from '../database.js';
import type { Database } from '../schema.js';
import type { WritePriority } from '../sqlite-writer-protocol.js';
import type { SqliteWriter } from '../sqlite-writer.js';
import { guarded } from '../store-errors.js';
import { CompiledAppends, KyselyVisitStatements } from './kysely-visit-statements.js';
import { recordVisits } from './record-visits.js';
import { batchSlices } from './visit-batch-slices.js';
import { writerThreadVisitStatements } from './writer-thread-visit-statements.js';

/**
 * The flusher's writer for the open database: the writer thread's task on SQLite, Kysely from this
 * thread on PostgreSQL. A flush answers no client: its writes are background work (ADR 0023).
 */
export function visitWriterFor(database: OpenDatabase): VisitWriter {
  return database.embedded ? new WriterThreadVisitWriter(database.embedded.writer, 'background') : new KyselyVisitWriter(database.backgroundDb);
}

/** On PostgreSQL: one transaction per batch, its steps through Kysely. */
export class KyselyVisitWriter implements VisitWriter {
  private readonly appends: CompiledAppends;

  constructor(private readonly db: Kysely<Database>) {
    this.appends = new CompiledAppends(db);
  }

  recordBatch(batch: VisitBatch): Promise<void> {
    if (batch.size === 0) return Promise.resolve();
    return guarded(() => this.db.transaction().execute((trx) => recordVisits(new KyselyVisitStatements(trx, this.appends), batch)));
  }
}

/**
 * On SQLite the whole batch goes to the writer thread in one message and is rolled up and written
 * there (recordVisitsOnWriter, ADR 0016): the thread that answers redirects only classifies and
 * copies a few typed arrays.
 */
export class WriterThreadVisitWriter implements VisitWriter {
  /**
   * The parts of a flush over many links are queued together, so that they share the writer's
   * group commits (ADR 0010) instead of waiting for a commit each; each part is still a job of its
   * own, and a client's write queued meanwhile runs between two of them (ADR 0023).
   */
  readonly writesAtOnce = 64;

  constructor(private readonly writer: SqliteWriter, private readonly priority: WritePriority) {}

  recordBatch(batch: VisitBatch): Promise<void> {
    if (batch.size === 0) return Promise.resolve();
    return guarded(() => this.writer.task('recordVisits', batch, this.priority));
  }
}

/**
 * The writer thread's `recordVisits` task, inside a savepoint of its group so that the batch is
 * written whole or not at all. A batch of many links is written in slices (visit-batch-slices.ts).
 * Its statements are synchronous: nothing else runs on the thread between its steps.
 */
export async function recordVisitsOnWriter(db: SQLite.Database, batch: VisitBatch): Promise<void> {
  const statements = writerThreadVisitStatements(db);
  for (const slice of batchSlices(batch)) await recordVisits(statements, slice);
}
