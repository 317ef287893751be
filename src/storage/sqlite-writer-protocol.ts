/** Messages between SqliteWriter (main thread) and its worker (sqlite-writer-worker.ts). */

export interface WriteStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/** What Kysely expects back from a statement (rows for a reader, counts for a writer). */
export interface StatementResult {
  readonly rows: unknown[];
  readonly numAffectedRows?: bigint;
  readonly insertId?: bigint;
}

export interface SerializedError {
  readonly name: string;
  readonly message: string;
  readonly code: string | undefined;
}

export interface WriterSettings {
  readonly file: string;
  /** How long a write may wait for SQLite's write lock held by another connection before it fails as busy. */
  readonly writeTimeoutMs: number;
}

/**
 * Who waits for a write (ADR 0023). `foreground`: a client's request; served first. `background`:
 * the cleanup job, analytics flushes, imports; served after the foreground writes queued with it,
 * at least one per group, so that neither class starves. Neither fails for time spent in the
 * queue: a write fails as busy only when SQLite's write lock was held elsewhere for the timeout.
 */
export type WritePriority = 'foreground' | 'background';

/**
 * Work the writer thread does itself, named here and defined in sqlite-writer-tasks.ts: a task
 * gets its input by structured clone and runs its own prepared statements, so a write of
 * thousands of rows is one message, not one per statement.
 */
export type WriterTaskName = 'recordVisits';

/** What every request that waits in the writer's queue carries: its class and when it was sent (its wait for a lock held elsewhere counts from then). */
interface Queued {
  readonly id: number;
  readonly priority: WritePriority;
  readonly sentAt: number;
}

/**
 * `write` is one autocommit statement; `task` is one named task (committed like a write, inside a
 * savepoint so that its failure undoes only itself); `begin` opens a session (an interactive transaction) whose
 * statements follow as `execute`, ended by `commit` or `rollback`. Every request carries its own
 * `id`, answered by exactly one reply. Writes and commits are answered only after the COMMIT that
 * made them durable.
 */
export type ToWriter =
  | ({ readonly type: 'write'; readonly statement: WriteStatement } & Queued)
  | ({ readonly type: 'task'; readonly task: WriterTaskName; readonly input: unknown } & Queued)
  | ({ readonly type: 'begin' } & Queued)
  | { readonly type: 'execute'; readonly id: number; readonly session: number; readonly statement: WriteStatement }
  | { readonly type: 'commit'; readonly id: number; readonly session: number }
  | { readonly type: 'rollback'; readonly id: number; readonly session: number }
  | { readonly type: 'close' };

export type FromWriter =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly id: number; readonly result?: StatementResult }
  | { readonly type: 'failed'; readonly id: number; readonly error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  const err = error as { name?: string; message?: string; code?: unknown };
  return {
    name: err?.name ?? 'Error',
    message: err?.message ?? String(error),
    code: typeof err?.code === 'string' ? err.code : undefined,
  };
}

export function deserializeError(error: SerializedError): Error {
  return Object.assign(new Error(error.message), { name: error.name, code: error.code });
}
