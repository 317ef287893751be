import { Worker } from 'node:worker_threads';
import type {
  MarkBatchRequest, MarkBatchResult, PurgeBatchRequest, PurgeBatchResult, ReaperStore,
} from '../core/cleanup-ports.js';
import { StoreUnavailableError } from '../core/errors.js';

type Op = 'mark' | 'purge';
interface SerializedError { name: string; message: string; code: string | undefined }

/** Messages between ThreadedReaperStore and its worker (sqlite-reaper-worker.ts). */
export type ToWorker =
  | { type: 'call'; id: number; op: Op; request: Omit<MarkBatchRequest, 'beforeCommit'> | Omit<PurgeBatchRequest, 'beforeCommit'>; withHook: boolean }
  | { type: 'commit-reply'; id: number; failed: boolean }
  | { type: 'close' };
export type FromWorker =
  | { type: 'result'; id: number; result: MarkBatchResult | PurgeBatchResult }
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'before-commit'; id: number; rows: number };

interface PendingCall {
  resolve(result: unknown): void;
  reject(error: unknown): void;
  beforeCommit: ((rows: number) => Promise<void>) | undefined;
  hookError?: unknown;
}

function toError(error: SerializedError): Error {
  if (error.name === 'StoreUnavailableError') return new StoreUnavailableError(error.message);
  return Object.assign(new Error(error.message), { name: error.name, code: error.code });
}

function startWorker(file: string): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Worker(new URL('./sqlite-reaper-worker.js', here), { workerData: { file } });
  // Running from the TypeScript sources (tests, benchmarks, `npm run dev`): worker threads do not
  // inherit tsx's loader, so the worker registers it before importing its entry.
  const entry = new URL('./sqlite-reaper-worker.ts', here).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`, {
    eval: true, workerData: { file },
  });
}

/**
 * The reaper's batches on the embedded database, run in a worker thread. better-sqlite3 is
 * synchronous: run on the main thread, every batch (a thousand row deletes across five indexes,
 * then an fsync) would stall every redirect for tens of milliseconds. WAL lets the main
 * connection keep reading while the worker writes. PostgreSQL's driver is asynchronous, so there
 * the plain KyselyReaperStore runs in-process.
 */
export class ThreadedReaperStore implements ReaperStore {
  private worker: Worker | undefined;
  private readonly calls = new Map<number, PendingCall>();
  private nextId = 1;

  constructor(private readonly file: string) {}

  markExpiredBatch(request: MarkBatchRequest): Promise<MarkBatchResult> {
    return this.call('mark', request) as Promise<MarkBatchResult>;
  }

  purgeBatch(request: PurgeBatchRequest): Promise<PurgeBatchResult> {
    return this.call('purge', request) as Promise<PurgeBatchResult>;
  }

  /** Closes the worker's connection and ends the thread; the next batch would start a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies ToWorker);
    await exited;
  }

  private call(op: Op, request: MarkBatchRequest | PurgeBatchRequest): Promise<unknown> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    const { beforeCommit, ...plain } = request;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject, beforeCommit });
      worker.ref(); // a batch in flight keeps the process alive; an idle worker does not
      worker.postMessage({ type: 'call', id, op, request: plain, withHook: beforeCommit !== undefined } satisfies ToWorker);
    });
  }

  private start(): Worker {
    const worker = startWorker(this.file);
    worker.on('message', (message: FromWorker) => void this.onMessage(worker, message));
    worker.on('error', (error) => this.failAll(worker, error));
    worker.on('exit', (code) => this.failAll(worker, new Error(`the reaper's database thread exited (code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private async onMessage(worker: Worker, message: FromWorker): Promise<void> {
    const pending = this.calls.get(message.id);
    if (!pending) return;
    if (message.type === 'before-commit') {
      try {
        await pending.beforeCommit?.(message.rows);
        worker.postMessage({ type: 'commit-reply', id: message.id, failed: false } satisfies ToWorker);
      } catch (error) {
        pending.hookError = error;
        worker.postMessage({ type: 'commit-reply', id: message.id, failed: true } satisfies ToWorker);
      }
      return;
    }
    this.calls.delete(message.id);
    if (this.calls.size === 0) worker.unref();
    if (message.type === 'result') pending.resolve(message.result);
    else pending.reject(pending.hookError ?? toError(message.error));
  }

  private failAll(worker: Worker, error: unknown): void {
    if (this.worker === worker) this.worker = undefined;
    for (const pending of this.calls.values()) pending.reject(error);
    this.calls.clear();
  }
}
