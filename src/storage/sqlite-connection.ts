import type SQLite from 'better-sqlite3';

/**
 * The settings every connection to the embedded file gets. WAL lets the redirect connection read
 * while the writer writes; synchronous=FULL keeps acknowledged writes through a power loss
 * (docs/adr/0003). busy_timeout is how long a statement waits for a lock held elsewhere: the
 * writer's thread may wait, the main thread's reader must not (0: it answers 503 instead).
 */
const OPEN_BUSY_TIMEOUT_MS = 5_000;

/**
 * Each connection's page cache, in KiB (cache_size takes a negative number as KiB), smaller than
 * better-sqlite3's default, which both connections filled. The reader's (SQLite's own default)
 * holds the B-trees' interior pages, and a miss reads its leaves from the OS's file cache, which is
 * not the process's memory; the writer's is the smallest that does not slow the analytics flushes
 * down (measured in docs/adr/0020, "A bounded page cache per connection").
 */
export const PAGE_CACHE_KIB = { reader: 2_048, writer: 8_192 } as const;

/**
 * Two processes turning one new file to WAL at once can deadlock on the upgrade from a shared to
 * an exclusive lock, and SQLite then answers SQLITE_BUSY at once instead of calling the busy
 * handler: retry for as long as the busy timeout would have waited.
 */
function switchToWal(db: SQLite.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + OPEN_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 10 + Math.random() * 40);
    }
  }
}

export function configureConnection(db: SQLite.Database, options: { busyTimeoutMs: number; readOnly?: boolean }): void {
  // Turning a new file to WAL takes a lock: at start-up (not on the event loop's hot path yet)
  // every connection may wait for another process doing the same.
  db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
  switchToWal(db);
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${options.readOnly ? PAGE_CACHE_KIB.reader : PAGE_CACHE_KIB.writer}`);
  // A write on the reader would be a bug (and would block the event loop): make it fail loudly.
  if (options.readOnly) db.pragma('query_only = ON');
}
