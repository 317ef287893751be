import type SQLite from 'better-sqlite3';

/**
 * The settings every connection to the embedded file gets. WAL lets the redirect connection read
 * while the writer writes; synchronous=FULL keeps acknowledged writes through a power loss
 * (docs/adr/0003). busy_timeout is how long a statement waits for a lock held elsewhere: the
 * writer's thread may wait, the main thread's reader must not (0: it answers 503 instead).
 */
const OPEN_BUSY_TIMEOUT_MS = 5_000;

export function configureConnection(db: SQLite.Database, options: { busyTimeoutMs: number; readOnly?: boolean }): void {
  // Turning a new file to WAL takes a lock: at start-up (not on the event loop's hot path yet)
  // every connection may wait for another process doing the same.
  db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // A write on the reader would be a bug (and would block the event loop): make it fail loudly.
  if (options.readOnly) db.pragma('query_only = ON');
}
