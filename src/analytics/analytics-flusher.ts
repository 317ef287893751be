import type { AnalyticsStore } from '../core/analytics-ports.js';
import { classifiedBatch } from './visit-batch.js';
import { concatVisits, type RawVisits, type VisitBuffer } from './visit-buffer.js';

export interface AnalyticsFlusherOptions {
  readonly buffer: VisitBuffer;
  readonly store: AnalyticsStore;
  readonly intervalMs: number;
  /** A flush starts as soon as this many events wait, without waiting for the interval. */
  readonly maxEvents: number;
  /** A flush that failed; its visits are kept for the next one. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Writes the buffered visits in one `recordBatch` every interval, or sooner when `maxEvents` wait
 * (also when they came while the previous flush ran: it starts the next one at once). One flush at
 * a time. A failed flush keeps its events (raw: classifying again is a cache hit) and
 * the next one writes them with the new ones; they still count against the buffer's bound. `stop`
 * writes what is left.
 */
export class AnalyticsFlusher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private retry: RawVisits | undefined;
  private stopped = false;

  constructor(private readonly options: AnalyticsFlusherOptions) {
    options.buffer.onReach(options.maxEvents, () => setImmediate(() => void this.flush()));
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Writes what waits now (after the flush in progress, if any); rejects when the write failed. */
  async flushNow(): Promise<void> {
    while (this.running) await this.running.catch(() => {});
    const failed = await this.run();
    if (failed !== undefined) throw failed;
  }

  /** A timed or threshold flush: skipped while one runs; a failure is reported, not thrown. */
  private flush(): Promise<void> {
    if (this.running) return this.running;
    return this.run().then(() => undefined);
  }

  private async run(): Promise<unknown> {
    const { buffer, store } = this.options;
    const visits = this.retry === undefined ? buffer.take() : concatVisits(this.retry, buffer.take());
    if (visits.size === 0) return undefined;
    let done: () => void = () => {};
    this.running = new Promise((resolve) => { done = resolve; });
    try {
      await store.recordBatch(classifiedBatch(visits));
      this.retry = undefined;
      buffer.release(visits.size);
      // The threshold fires once, when it is reached: events that reached it again while this flush
      // ran would otherwise wait for the interval, and under load fill the buffer up to its bound.
      if (!this.stopped && buffer.size >= this.options.maxEvents) setImmediate(() => void this.flush());
      return undefined;
    } catch (error) {
      this.retry = visits;
      this.options.onError?.(error);
      return error;
    } finally {
      this.running = undefined;
      done();
    }
  }

  /** Stops the timer and writes everything buffered; rejects when that last write fails. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flushNow();
  }
}
