/**
 * Buffered visits as the hot path leaves them, in columns: visit i is of link `linkIds[i]`, at
 * `visitedAt[i]`, with its User-Agent `agents[agentIndex[i]]` and Referer
 * `referers[refererIndex[i]]` ('' when the header was absent). The flusher classifies them later.
 */
export interface RawVisits {
  readonly size: number;
  readonly linkIds: Float64Array;
  readonly visitedAt: Float64Array;
  readonly latencyMs: Float64Array;
  readonly agentIndex: Uint32Array;
  readonly refererIndex: Uint32Array;
  readonly agents: readonly string[];
  readonly referers: readonly string[];
}

/** What the redirect responder is given: appends one event, never waits, never throws. */
export type RecordVisit = (linkId: number, latencyMs: number, userAgent: string | undefined, referer: string | undefined) => void;

/** Each distinct header value once, by the index the columns hold. */
class Dictionary {
  readonly values: string[] = [];
  private readonly indexes = new Map<string, number>();
  private lastValue: string | undefined;
  private lastIndex = 0;

  indexOf(value: string): number {
    if (value === this.lastValue) return this.lastIndex; // one client's requests come in runs
    let index = this.indexes.get(value);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.indexes.set(value, index);
    }
    this.lastValue = value;
    this.lastIndex = index;
    return index;
  }
}

const FIRST_CAPACITY = 4_096;

/**
 * The in-memory buffer between the redirect path and the flusher. Bounded by `max` events counting
 * those a flush holds: an event that does not fit is dropped and counted, so an outage can cost
 * visits but never memory or redirect speed.
 *
 * No object per visit (ADR 0016, "Recording in columns"): an event waits up to a flush interval,
 * long enough for the young generation to copy it and promote it to the old one; numbers in typed
 * arrays and each distinct header string once cost the garbage collector next to nothing.
 */
export class VisitBuffer {
  private capacity: number;
  private linkIds: Float64Array;
  private visitedAt: Float64Array;
  private latencyMs: Float64Array;
  private agentIndex: Uint32Array;
  private refererIndex: Uint32Array;
  private agents = new Dictionary();
  private referers = new Dictionary();
  private count = 0;
  private held = 0;
  /** When the oldest event a flush holds was recorded (ADR 0018's flush lag). */
  private heldSince: number | undefined;
  private droppedCount = 0;
  private threshold = Number.POSITIVE_INFINITY;
  private onThreshold: () => void = () => {};

  constructor(private readonly max: number, private readonly now: () => number) {
    this.capacity = Math.min(max, FIRST_CAPACITY);
    this.linkIds = new Float64Array(this.capacity);
    this.visitedAt = new Float64Array(this.capacity);
    this.latencyMs = new Float64Array(this.capacity);
    this.agentIndex = new Uint32Array(this.capacity);
    this.refererIndex = new Uint32Array(this.capacity);
  }

  readonly record: RecordVisit = (linkId, latencyMs, userAgent, referer) => {
    if (this.count + this.held >= this.max) {
      this.droppedCount += 1;
      return;
    }
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    this.linkIds[i] = linkId;
    this.visitedAt[i] = this.now();
    this.latencyMs[i] = latencyMs;
    this.agentIndex[i] = this.agents.indexOf(userAgent ?? '');
    this.refererIndex[i] = this.referers.indexOf(referer ?? '');
    if (this.count === this.threshold) this.onThreshold();
  };

  /** Calls `listener` whenever the waiting events reach `count` (the flusher's early flush). */
  onReach(count: number, listener: () => void): void {
    this.threshold = count;
    this.onThreshold = listener;
  }

  /** Events waiting for a flush. */
  get size(): number {
    return this.count;
  }

  /** Events dropped because the buffer was full, since start. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** When the oldest event not yet written was recorded, whether it waits or a flush holds it. */
  get oldestPendingAt(): number | undefined {
    return this.heldSince ?? (this.count > 0 ? this.visitedAt[0] : undefined);
  }

  /**
   * Hands every waiting event to a flush. They still count against `max` until the flush calls
   * `release`, so events kept for a retry never push the total past the bound.
   */
  take(): RawVisits {
    const size = this.count;
    const taken: RawVisits = {
      size,
      linkIds: this.linkIds.slice(0, size),
      visitedAt: this.visitedAt.slice(0, size),
      latencyMs: this.latencyMs.slice(0, size),
      agentIndex: this.agentIndex.slice(0, size),
      refererIndex: this.refererIndex.slice(0, size),
      agents: this.agents.values,
      referers: this.referers.values,
    };
    this.count = 0;
    this.agents = new Dictionary();
    this.referers = new Dictionary();
    if (this.held === 0) this.heldSince = size > 0 ? taken.visitedAt[0] : undefined;
    this.held += size;
    return taken;
  }

  /** The flush that took `count` events is done with them (written, or kept by the flusher for a retry). */
  release(count: number): void {
    this.held -= count;
    if (this.held === 0) this.heldSince = undefined;
  }

  private grow(): void {
    this.capacity = Math.min(this.max, this.capacity * 2);
    this.linkIds = copied(this.linkIds, new Float64Array(this.capacity));
    this.visitedAt = copied(this.visitedAt, new Float64Array(this.capacity));
    this.latencyMs = copied(this.latencyMs, new Float64Array(this.capacity));
    this.agentIndex = copied(this.agentIndex, new Uint32Array(this.capacity));
    this.refererIndex = copied(this.refererIndex, new Uint32Array(this.capacity));
  }
}

/** `to`, holding `from` at its start and then `after`. */
function copied<T extends Float64Array | Uint32Array>(from: T, to: T, after?: T): T {
  to.set(from);
  if (after) to.set(after, from.length);
  return to;
}

/** `first`'s visits, then `second`'s, as one (a failed flush's visits with the next ones). */
export function concatVisits(first: RawVisits, second: RawVisits): RawVisits {
  const agents = new Dictionary();
  const referers = new Dictionary();
  const size = first.size + second.size;
  const agentIndex = new Uint32Array(size);
  const refererIndex = new Uint32Array(size);
  let at = 0;
  for (const part of [first, second]) {
    for (let i = 0; i < part.size; i++, at++) {
      agentIndex[at] = agents.indexOf(part.agents[part.agentIndex[i]!]!);
      refererIndex[at] = referers.indexOf(part.referers[part.refererIndex[i]!]!);
    }
  }
  return {
    size,
    linkIds: copied(first.linkIds, new Float64Array(size), second.linkIds),
    visitedAt: copied(first.visitedAt, new Float64Array(size), second.visitedAt),
    latencyMs: copied(first.latencyMs, new Float64Array(size), second.latencyMs),
    agentIndex,
    refererIndex,
    agents: agents.values,
    referers: referers.values,
  };
}
