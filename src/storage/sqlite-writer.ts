import { Worker } from 'node:worker_threads';
import {
  deserializeError, type FromWriter, type StatementResult, type ToWriter, type WritePriority, type WriterTaskName, type WriteStatement, type WriterSettings,
} from './sqlite-writer-protocol.js';

interface Pending {
  resolve(result: StatementResult | undefined): void;
  reject(error: unknown): void;
}

/**
 * The writer's own heap holds one group of statements and results at a time: a small young
 * generation keeps its share of the process's memory (ADR 0020: under 200 MB) small.
 */
const WRITER_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

function writerExited(how: string, cause?: unknown): Error {
  return Object.assign(new Error(`the database writer thread ${how}`, { cause }), { code: 'SQLITE_WRITER_EXITED' });
}

function startWorker(settings: WriterSettings): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Worker(new URL('./sqlite-writer-worker.js', here), { workerData: settings, resourceLimits: WRITER_HEAP });
  // Running from the TypeScript sources (tests, benchmarks, `npm run dev`): worker threads do not
  // inherit tsx's loader, so the worker registers it before importing its entry.
  const entry = new URL('./sqlite-writer-worker.ts', here).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`, {
    eval: true, workerData: settings, resourceLimits: WRITER_HEAP,
  });
}

/**
 * The main thread's handle on the embedded database's one writer (sqlite-writer-worker.ts). Every
 * write is a message; the promise settles once the write is committed (or failed). The worker is
 * restarted by the next write after it dies; while nothing is in flight it does not keep the
 * process alive.
 */
export class SqliteWriter {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  /** Open sessions and the worker that holds each: a session does not survive its worker. */
  private readonly sessions = new Map<number, Worker>();
  private nextId = 1;
  private closed = false;
  /**
   * Requests made while the thread starts, sent once it is ready: a write's wait for the lock counts
   * from when it is sent, not while a thread boots (seconds when the sources run through tsx).
   */
  private starting: Array<() => void> | undefined;
  private requestsSent = 0;

  /** Statements and transactions sent to the writer since start (tests prove the read path sends none). */
  get sent(): number {
    return this.requestsSent;
  }

  /** Requests sent to the writer thread and not yet answered (a /metrics gauge). */
  get queueDepth(): number {
    return this.pending.size;
  }

  /**
   * `beforeSettle` runs before any write's promise settles: the reader ends its shared snapshot
   * there, so whoever hears of a write reads it.
   */
  constructor(
    private readonly settings: WriterSettings,
    private readonly onStatement?: (sql: string) => void,
    private readonly beforeSettle?: () => void,
  ) {
    // Started now, not at the first write: a thread takes tens of milliseconds to start, which
    // would otherwise fall on the first request that writes.
    this.start();
  }

  /** One autocommit statement, committed together with the writes queued beside it. */
  write(statement: WriteStatement, priority: WritePriority = 'foreground'): Promise<StatementResult> {
    this.requestsSent++;
    this.onStatement?.(statement.sql);
    return this.request((id) => ({ type: 'write', id, statement, priority, sentAt: Date.now() })) as Promise<StatementResult>;
  }

  /**
   * Runs a named task of sqlite-writer-tasks.ts on the writer thread, in one transaction with the
   * writes queued beside it; settles once committed. `input` is copied (structured clone). Statement
   * counters (`onStatement`) see it as `task <name>`: its statements run on the writer thread.
   */
  async task(task: WriterTaskName, input: unknown, priority: WritePriority = 'foreground'): Promise<void> {
    this.requestsSent++;
    this.onStatement?.(`task ${task}`);
    await this.request((id) => ({ type: 'task', id, task, input, priority, sentAt: Date.now() }));
  }

  /** Opens a session: the writer runs nothing else until it is committed or rolled back. */
  async begin(priority: WritePriority = 'foreground'): Promise<number> {
    this.requestsSent++;
    let session = 0;
    await this.request((id) => {
      session = id;
      return { type: 'begin', id, priority, sentAt: Date.now() };
    });
    this.sessions.set(session, this.worker!);
    return session;
  }

  execute(session: number, statement: WriteStatement): Promise<StatementResult> {
    this.onStatement?.(statement.sql);
    return this.inSession(session, (id) => ({ type: 'execute', id, session, statement })) as Promise<StatementResult>;
  }

  async commit(session: number): Promise<void> {
    try {
      await this.inSession(session, (id) => ({ type: 'commit', id, session }));
    } finally {
      this.sessions.delete(session);
    }
  }

  /** Never throws: a rollback that cannot run means the transaction is already gone. */
  async rollback(session: number): Promise<void> {
    await this.inSession(session, (id) => ({ type: 'rollback', id, session })).catch(() => undefined);
    this.sessions.delete(session);
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies ToWriter);
    await exited;
  }

  private inSession(session: number, message: (id: number) => ToWriter): Promise<StatementResult | undefined> {
    if (this.worker === undefined || this.sessions.get(session) !== this.worker) {
      return Promise.reject(Object.assign(new Error('the transaction ended with its database writer thread'), { code: 'SQLITE_WRITER_EXITED' }));
    }
    return this.request(message);
  }

  private request(message: (id: number) => ToWriter): Promise<StatementResult | undefined> {
    if (this.closed) return Promise.reject(Object.assign(new Error('The database connection is not open'), { code: 'SQLITE_MISUSE' }));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) worker.ref(); // a write in flight keeps the process alive
      const post = () => worker.postMessage(message(id));
      if (this.starting === undefined) post();
      else this.starting.push(post);
    });
  }

  private start(): Worker {
    const worker = startWorker(this.settings);
    this.starting = [];
    worker.on('message', (message: FromWriter) => {
      if (message.type !== 'ready') return this.settle(worker, message);
      const posts = this.starting ?? [];
      this.starting = undefined;
      for (const post of posts) post();
    });
    // Whatever ended the thread (its heap ran out, a native error, an exit), the writes it held are
    // not done and the next write starts a new one: SQLITE_WRITER_EXITED is a 503 (store-errors.ts).
    worker.on('error', (error) => this.failAll(worker, writerExited(`failed: ${error.message}`, error)));
    worker.on('exit', (code) => this.failAll(worker, writerExited(`exited (code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private settle(worker: Worker, message: Exclude<FromWriter, { type: 'ready' }>): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.beforeSettle?.();
    this.pending.delete(message.id);
    if (this.pending.size === 0) worker.unref();
    if (message.type === 'done') pending.resolve(message.result);
    else pending.reject(deserializeError(message.error));
  }

  private failAll(worker: Worker, error: unknown): void {
    if (this.worker === worker) {
      this.worker = undefined;
      this.starting = undefined; // their requests are failed below
    }
    this.beforeSettle?.();
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
