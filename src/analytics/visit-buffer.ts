/** One answered redirect as the hot path leaves it: raw headers, classified later by the flusher. */
export interface RawVisit {
  readonly linkId: number;
  readonly visitedAt: number;
  readonly latencyMs: number;
  readonly userAgent: string | undefined;
  readonly referer: string | undefined;
}

/** What the redirect responder is given: appends one event, never waits, never throws. */
export type RecordVisit = (linkId: number, latencyMs: number, userAgent: string | undefined, referer: string | undefined) => void;

/**
 * The in-memory buffer between the redirect path and the flusher. Bounded by `max` events counting
 * those a flush holds: an event that does not fit is dropped and counted, so an outage can cost
 * visits but never memory or redirect speed.
 */
export class VisitBuffer {
  private events: RawVisit[] = [];
  private held = 0;
  /** When the oldest event a flush holds was recorded (ADR 0018's flush lag). */
  private heldSince: number | undefined;
  private droppedCount = 0;
  private threshold = Number.POSITIVE_INFINITY;
  private onThreshold: () => void = () => {};

  constructor(private readonly max: number, private readonly now: () => number) {}

  readonly record: RecordVisit = (linkId, latencyMs, userAgent, referer) => {
    if (this.events.length + this.held >= this.max) {
      this.droppedCount += 1;
      return;
    }
    if (this.events.push({ linkId, visitedAt: this.now(), latencyMs, userAgent, referer }) === this.threshold) this.onThreshold();
  };

  /** Calls `listener` whenever the waiting events reach `count` (the flusher's early flush). */
  onReach(count: number, listener: () => void): void {
    this.threshold = count;
    this.onThreshold = listener;
  }

  /** Events waiting for a flush. */
  get size(): number {
    return this.events.length;
  }

  /** Events dropped because the buffer was full, since start. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** When the oldest event not yet written was recorded, whether it waits or a flush holds it. */
  get oldestPendingAt(): number | undefined {
    return this.heldSince ?? this.events[0]?.visitedAt;
  }

  /**
   * Hands every waiting event to a flush. They still count against `max` until the flush calls
   * `release`, so events kept for a retry never push the total past the bound.
   */
  take(): RawVisit[] {
    const taken = this.events;
    this.events = [];
    if (this.held === 0) this.heldSince = taken[0]?.visitedAt;
    this.held += taken.length;
    return taken;
  }

  /** The flush that took `count` events is done with them (written, or kept by the flusher for a retry). */
  release(count: number): void {
    this.held -= count;
    if (this.held === 0) this.heldSince = undefined;
  }
}
