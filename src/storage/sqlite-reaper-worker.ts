import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { MarkBatchRequest, PurgeBatchRequest } from '../core/cleanup-ports.js';
import { openSqlite } from './database.js';
import { KyselyReaperStore } from './reaper-store.js';
import type { FromWorker, ToWorker } from './threaded-reaper-store.js';

/**
 * The thread that runs the reaper's batches on the embedded database (ThreadedReaperStore): its
 * own better-sqlite3 connection to the same file, the same portable KyselyReaperStore, and so
 * the page writes and fsyncs of each batch never block the event loop that answers redirects.
 */
const port = parentPort!;
// On Linux a thread has its own nice value (setpriority on 0 means the calling thread there, the
// whole process elsewhere): the batches yield the CPU to the thread that answers redirects.
if (process.platform === 'linux') {
  try {
    os.setPriority(19);
  } catch {
    // Not allowed in this sandbox: the batches simply keep normal priority.
  }
}
const database = openSqlite((workerData as { file: string }).file);
const store = new KyselyReaperStore(database.db);
const commitReplies = new Map<number, (failed: boolean) => void>();

const send = (message: FromWorker) => port.postMessage(message);

/** Round trip to the main thread's beforeCommit hook, from inside the batch's transaction. */
function beforeCommit(id: number) {
  return async (rows: number) => {
    const failed = await new Promise<boolean>((resolve) => {
      commitReplies.set(id, resolve);
      send({ type: 'before-commit', id, rows });
    });
    if (failed) throw new Error('beforeCommit hook failed'); // the main thread rejects with the hook's own error
  };
}

async function call(message: Extract<ToWorker, { type: 'call' }>): Promise<void> {
  const hook = message.withHook ? beforeCommit(message.id) : undefined;
  try {
    const result = message.op === 'mark'
      ? await store.markExpiredBatch({ ...(message.request as MarkBatchRequest), beforeCommit: hook })
      : await store.purgeBatch({ ...(message.request as PurgeBatchRequest), beforeCommit: hook });
    send({ type: 'result', id: message.id, result });
  } catch (error) {
    const err = error as { name?: string; message?: string; code?: unknown };
    send({ type: 'error', id: message.id, error: { name: err.name ?? 'Error', message: err.message ?? String(error), code: typeof err.code === 'string' ? err.code : undefined } });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'call') void call(message);
  else if (message.type === 'commit-reply') {
    commitReplies.get(message.id)?.(message.failed);
    commitReplies.delete(message.id);
  } else if (message.type === 'close') {
    void database.close().finally(() => port.close());
  }
});
