import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { configureConnection } from './sqlite-connection.js';
import { SqliteFileIdentity } from './sqlite-file-identity.js';
import {
  serializeError, type FromWriter, type StatementResult, type ToWriter, type WriteStatement, type WriterSettings,
} from './sqlite-writer-protocol.js';
import { WriterQueue, type Job } from './sqlite-writer-queue.js';
import { WriterSessions } from './sqlite-writer-sessions.js';
import { WRITER_TASKS } from './sqlite-writer-tasks.js';

/**
 * The one thread that writes to the embedded database (ADR 0010). Every write of the app,
 * the reaper and the visit flusher arrives here as a message (a statement, a session of
 * statements, or a named task of sqlite-writer-tasks.ts), so a write lock held by
 * another process, a page write or an fsync blocks this thread, never the event loop that answers
 * redirects.
 *
 * Group commit: the writes queued behind each other run in one transaction with one fsync, and
 * each is answered only after that COMMIT. A single statement that fails (a unique index) is
 * undone by SQLite on its own and leaves its neighbours alone; a session (an interactive
 * transaction) runs inside a savepoint, so its rollback undoes only itself.
 */
const port = parentPort!;
const settings = workerData as WriterSettings;

// Linux gives each thread its own nice value: under CPU pressure the redirect thread goes first.
if (process.platform === 'linux') {
  try {
    os.setPriority(10);
  } catch {
    // Not permitted here: the writer keeps normal priority.
  }
}

const db = new SQLite(settings.file);
configureConnection(db, { busyTimeoutMs: settings.writeTimeoutMs });
const identity = new SqliteFileIdentity(settings.file);
const statements = new Map<string, SQLite.Statement>();

const queue = new WriterQueue(settings.writeTimeoutMs);
/** Results of the group's writes, sent once its COMMIT succeeded. */
const pendingResults = new Map<number, StatementResult>();
let draining = false;
let closing = false;

const send = (message: FromWriter) => port.postMessage(message);
const fail = (id: number, error: unknown) => send({ type: 'failed', id, error: serializeError(error) });

function busyError(): Error {
  return Object.assign(new Error(`the write waited more than ${settings.writeTimeoutMs} ms for a write lock held by another connection`), { code: 'SQLITE_BUSY_TIMEOUT' });
}

function run({ sql, parameters }: WriteStatement): StatementResult {
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    if (statements.size < 500) statements.set(sql, statement);
  }
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

const sessions = new WriterSessions({
  db, writeTimeoutMs: settings.writeTimeoutMs, run, fail, done: (id, result) => send({ type: 'done', id, result }),
});

port.on('message', (message: ToWriter) => {
  switch (message.type) {
    case 'write':
    case 'task':
    case 'begin':
      queue.push(message);
      break;
    case 'close':
      closing = true;
      break;
    default:
      sessions.receive(message);
      return;
  }
  if (!draining) {
    draining = true;
    // Let every message already waiting in the port arrive first: they join the same group.
    setImmediate(() => void drain());
  }
});

async function drain(): Promise<void> {
  while (queue.length > 0) {
    // A lock held elsewhere: the messages sent meanwhile join the queue before the next attempt.
    if (!(await runGroup())) await new Promise((resolve) => setImmediate(resolve));
  }
  draining = false;
  if (closing) {
    db.close();
    port.close();
  }
}

let busyTimeoutMs = settings.writeTimeoutMs;

/**
 * BEGIN IMMEDIATE waits for a lock held elsewhere at most until the first queued job has waited
 * for it the whole write timeout: a write that arrived while the previous attempt waited must not
 * wait a whole timeout more.
 */
function waitForLockAtMost(ms: number): void {
  if (ms === busyTimeoutMs) return;
  db.pragma(`busy_timeout = ${ms}`);
  busyTimeoutMs = ms;
}

function begin(): boolean {
  const gone = identity.problem();
  if (gone) {
    for (const job of queue.takeAll()) fail(job.id, gone);
    return false;
  }
  try {
    waitForLockAtMost(queue.lockAttempt());
    db.exec('BEGIN IMMEDIATE');
    queue.lockTaken();
    return true;
  } catch (error) {
    // SQLITE_BUSY after busy_timeout: someone else holds the write lock. Jobs that can still wait
    // stay queued for the next attempt; any other failure (I/O, read-only files) fails them all.
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      for (const job of queue.takeGivenUp()) fail(job.id, busyError());
    } else {
      for (const job of queue.takeAll()) fail(job.id, error);
    }
    return false;
  }
}

/** One group: BEGIN IMMEDIATE, jobs in the queue's order, COMMIT. Answers false when the lock could not be taken. */
async function runGroup(): Promise<boolean> {
  if (!begin()) return false;
  const waitingForCommit: number[] = [];
  const group = { started: Date.now(), jobs: 0, backgroundJobs: 0 };
  let fatal: unknown;
  while (fatal === undefined) {
    const job = queue.next(group);
    if (job === undefined) break;
    group.jobs++;
    if (job.priority === 'background') group.backgroundJobs++;
    if (job.type === 'write') fatal = runWrite(job, waitingForCommit);
    else if (job.type === 'task') fatal = await runTask(job, waitingForCommit);
    else fatal = await sessions.run(job, waitingForCommit);
  }
  finishGroup(waitingForCommit, fatal);
  return true;
}

/** Runs one statement; returns the error that ended the whole transaction, if one did. */
function runWrite(job: Extract<Job, { type: 'write' }>, waitingForCommit: number[]): unknown {
  try {
    const result = run(job.statement);
    waitingForCommit.push(job.id);
    pendingResults.set(job.id, result);
    return undefined;
  } catch (error) {
    fail(job.id, error);
    // Disk full, I/O errors and the like roll back the whole transaction, not just the statement.
    return db.inTransaction ? undefined : error;
  }
}

/** Runs one task in a savepoint of the group: a task that fails leaves no row behind and its neighbours alone. */
async function runTask(job: Extract<Job, { type: 'task' }>, waitingForCommit: number[]): Promise<unknown> {
  try {
    db.exec('SAVEPOINT task');
  } catch (error) {
    fail(job.id, error);
    return db.inTransaction ? undefined : error;
  }
  try {
    await WRITER_TASKS[job.task](db, job.input);
    db.exec('RELEASE task');
    waitingForCommit.push(job.id);
    pendingResults.set(job.id, { rows: [] });
    return undefined;
  } catch (error) {
    fail(job.id, error);
    if (!db.inTransaction) return error;
    try {
      db.exec('ROLLBACK TO task; RELEASE task');
      return undefined;
    } catch (rollbackError) {
      return rollbackError;
    }
  }
}

/** COMMIT, then answer every write of the group; nothing is acknowledged that did not reach the disk. */
function finishGroup(waitingForCommit: number[], fatal: unknown): void {
  let error = fatal;
  if (error === undefined) {
    try {
      db.exec('COMMIT');
      error = identity.problem();
    } catch (commitError) {
      error = commitError;
    }
  }
  if (db.inTransaction) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // The transaction is already gone; the error that ended it is reported below.
    }
  }
  for (const id of waitingForCommit) {
    const result = pendingResults.get(id);
    pendingResults.delete(id);
    if (error === undefined) send({ type: 'done', id, result });
    else fail(id, error);
  }
}

// The database is open and every message handler is in place: requests may come, and their deadlines count from now.
send({ type: 'ready' });
