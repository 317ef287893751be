import type { VisitBatch, VisitWriter } from '../core/visit-ports.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchParts, splitBatch, type BatchPartLimits } from '../core/visit-batch.js';
import { classifiedBatch, type PlaceOf } from './classified-batch.js';
import { FLUSH_SLICE_MS } from './flush-slice.js';
import type { RawVisits, VisitBuffer } from './visit-buffer.js';
import { visitorIds, type SaltOf } from './visitor-ids.js';

export interface VisitFlusherOptions {
  readonly buffer: VisitBuffer;
  readonly writer: VisitWriter;
  readonly intervalMs: number;
  /** A flush starts as soon as this many events wait, without waiting for the interval. */
  readonly maxEvents: number;
  /** The place of a client address, looked up as a flush classifies its visits; without it no visit has a country or city. */
  readonly placeOf?: PlaceOf;
  /** The salt of a day's visitor ids (visitor-salts.ts); without it no visit has a visitor id. */
  readonly saltOf?: SaltOf;
  /** A write that failed; its visits are kept for the next flush (else `onGiveUp` is called instead). */
  readonly onError?: (error: unknown) => void;
  /** Visits given up on: their write failed MAX_ATTEMPTS times. They count as dropped. */
  readonly onGiveUp?: (visits: number, error: unknown) => void;
  /**
   * A flush whose visits are all written, told once at its end, off the redirect path (webhooks'
   * link.clicked, ADR 0035). Awaited, so that the flush's statements end with it; never rejects.
   */
  readonly onFlushed?: (batch: VisitBatch) => Promise<void>;
}

/**
 * What one write carries at most. The embedded writer thread has a heap of its own (ADR 0020):
 * ten thousand distinct sets of facts, a few megabytes of text, is a small part of it whatever
 * the headers were, where a hundred thousand new referrer hosts in one write ran it out of memory.
 */
const MAX_FACTS_PER_WRITE = 10_000;
/**
 * Distinct links one write carries at most. Each costs the embedded writer a counter update and
 * its roll-up rows (docs/adr/0022), and a write of a flush is one job the writer does not interrupt: at a thousand links it is tens of milliseconds, where a flush of
 * 50,000 distinct links written at once kept a client's write waiting behind it for 40–70 s on a
 * host whose CPU was taken (ADR 0023).
 */
const MAX_LINKS_PER_WRITE = 1_000;
const MAX_FACTS_CHARS_PER_WRITE = 2 * 1024 * 1024;

/** Writes a part of a flush may fail before its visits are given up on (ADR 0013, "Bounded writes"). */
export const MAX_ATTEMPTS = 5;

interface PendingPart {
  readonly batch: VisitBatch;
  readonly attempts: number;
}

/**
 * Writes the buffered visits every interval, or sooner when `maxEvents` wait (also when they came
 * while the previous flush ran: it starts the next one at once). One flush at a time. A flush
 * classifies its visits and cuts them into parts no larger than one write may carry, a millisecond
 * per turn of the event loop (flush-slice.ts), and writes them in order with one `recordBatch` each.
 *
 * A part whose write fails stays first in line and is retried by the next flush, cut in two, so
 * that a part too large for the database's writer goes through in pieces; one that failed
 * MAX_ATTEMPTS times is given up on and counted as dropped, never retried for ever. Visits not yet
 * written still count against the buffer's bound. `stop` writes what is left.
 */
export class VisitFlusher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private pending: PendingPart[] = [];
  private stopped = false;
  private readonly limits: BatchPartLimits;

  constructor(private readonly options: VisitFlusherOptions) {
    this.limits = { visits: options.maxEvents, links: MAX_LINKS_PER_WRITE, facts: MAX_FACTS_PER_WRITE, factsChars: MAX_FACTS_CHARS_PER_WRITE };
    options.buffer.onReach(options.maxEvents, () => setImmediate(() => void this.flush()));
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Writes what waits now (after the flush in progress, if any); rejects when a write failed. */
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
    const visits = this.options.buffer.take();
    if (visits.size === 0 && this.pending.length === 0) return undefined;
    let done: () => void = () => {};
    this.running = new Promise((resolve) => { done = resolve; });
    try {
      const batch = visits.size > 0 ? await this.withVisitorIds(visits, await classifiedBatch(visits, undefined, this.options.placeOf)) : undefined;
      if (batch) await this.cutIntoParts(batch);
      const failed = await this.writePending();
      if (failed === undefined && batch) await this.options.onFlushed?.(batch);
      // The threshold fires once, when it is reached: events that reached it again while this flush
      // ran would otherwise wait for the interval, and under load fill the buffer up to its bound.
      if (failed === undefined && !this.stopped && this.options.buffer.wantsFlush) setImmediate(() => void this.flush());
      return failed;
    } finally {
      this.running = undefined;
      done();
    }
  }

  /** The batch with its visitors' ids of the day (ADR 0028); the addresses go no further. */
  private async withVisitorIds(visits: RawVisits, batch: VisitBatch): Promise<VisitBatch> {
    const ids = this.options.saltOf && (await visitorIds(visits, batch, this.options.saltOf));
    return ids ? { ...batch, visitorIds: ids } : batch;
  }

  /** Queues the batch's parts, letting the event loop run every FLUSH_SLICE_MS (a flush over many links is cut link by link). */
  private async cutIntoParts(batch: VisitBatch): Promise<void> {
    let sliceStart = performance.now();
    for (const part of batchParts(batch, this.limits)) {
      if (part !== undefined) this.pending.push({ batch: part, attempts: 0 });
      if (performance.now() - sliceStart >= FLUSH_SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
  }

  /**
   * Writes the pending parts in order, up to the writer's `writesAtOnce` at a time; stops after
   * the first window in which a part failed, and answers that error. Failed parts go back first
   * in line (cut in two), or are given up on after MAX_ATTEMPTS.
   */
  private async writePending(): Promise<unknown> {
    const { buffer, writer } = this.options;
    while (this.pending.length > 0) {
      const window = this.pending.splice(0, Math.max(1, writer.writesAtOnce ?? 1));
      const results = await Promise.allSettled(window.map((part) => writer.recordBatch(part.batch)));
      const retries: PendingPart[] = [];
      let failed: { error: unknown } | undefined;
      results.forEach((result, k) => {
        const part = window[k]!;
        if (result.status === 'fulfilled') {
          buffer.release(part.batch.size);
          return;
        }
        failed ??= { error: result.reason };
        retries.push(...this.afterFailure(part, result.reason));
      });
      if (failed !== undefined) {
        this.pending.unshift(...retries);
        if (retries.length > 0) this.options.onError?.(failed.error);
        return failed.error;
      }
    }
    return undefined;
  }

  /** What a part whose write failed becomes: its halves to retry, or nothing (given up on, counted as dropped). */
  private afterFailure(part: PendingPart, error: unknown): PendingPart[] {
    const attempts = part.attempts + 1;
    if (attempts >= MAX_ATTEMPTS) {
      this.options.buffer.release(part.batch.size, true);
      this.options.onGiveUp?.(part.batch.size, error);
      return [];
    }
    const halves = part.batch.size > 1 ? splitBatch(part.batch, { ...this.limits, visits: Math.ceil(part.batch.size / 2) }) : [part.batch];
    return halves.map((batch) => ({ batch, attempts }));
  }

  /** Stops the timer and writes everything buffered; rejects when that last write fails. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flushNow();
  }
}
