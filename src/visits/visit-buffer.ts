import { headerPrefix, MAX_USER_AGENT, refererPrefix } from './header-prefix.js';
import { sharedCopy } from '../core/shared-columns.js';

/**
 * Buffered visits as the hot path leaves them, in columns: visit i is of link `linkIds[i]`, at
 * `visitedAt[i]`, with its User-Agent `agents[agentIndex[i]]` and Referer
 * `referers[refererIndex[i]]` ('' when the header was absent), from the client address
 * `addresses[addressIndex[i]]` ('' when not to be looked up). The flusher classifies them later,
 * looks each address up once, and forgets it: no address leaves this buffer (ADR 0025).
 */
export interface RawVisits {
  readonly size: number;
  readonly linkIds: Float64Array;
  readonly visitedAt: Float64Array;
  readonly latencyMs: Float64Array;
  readonly agentIndex: Uint32Array;
  readonly refererIndex: Uint32Array;
  readonly addressIndex: Uint32Array;
  /** What a route or variant served (core/served-code.ts): 0 for nothing. */
  readonly served: Uint8Array;
  readonly agents: readonly string[];
  readonly referers: readonly string[];
  readonly addresses: readonly string[];
}

/** What the redirect responder is given: appends one event, never waits, never throws. */
export type RecordVisit = (linkId: number, latencyMs: number, userAgent: string | undefined, referer: string | undefined, address?: string, served?: number) => void;

/** Each distinct header value once, by the index the columns hold. */
class Dictionary {
  readonly values: string[] = [];
  /** Characters of all the values. */
  chars = 0;
  private readonly indexes = new Map<string, number>();
  private lastValue: string | undefined;
  private lastIndex = 0;

  /** The value's index; -1 when it is new and would take the values past `maxChars`. */
  indexOf(value: string, maxChars = Number.POSITIVE_INFINITY): number {
    if (value === this.lastValue) return this.lastIndex; // one client's requests come in runs
    let index = this.indexes.get(value);
    if (index === undefined) {
      if (this.chars + value.length > maxChars) return -1;
      index = this.values.push(value) - 1;
      this.indexes.set(value, index);
      this.chars += value.length;
    }
    this.lastValue = value;
    this.lastIndex = index;
    return index;
  }
}

const FIRST_CAPACITY = 4_096;

/**
 * Header text one generation of the buffer may hold (both dictionaries): a flood of distinct
 * User-Agents or Referers is bounded in memory as the events are in count. Past TEXT_FLUSH_CHARS a
 * flush starts early; a visit whose new header value would pass MAX_TEXT_CHARS is dropped and counted.
 */
const MAX_TEXT_CHARS = 8 * 1024 * 1024;
const TEXT_FLUSH_CHARS = 2 * 1024 * 1024;
/** Address text one generation may hold: past it a visit is still recorded, without its address (no country). */
const MAX_ADDRESS_CHARS = 4 * 1024 * 1024;

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
  private addressIndex: Uint32Array;
  private served: Uint8Array;
  private agents = new Dictionary();
  private referers = new Dictionary();
  private addresses = new Dictionary();
  private count = 0;
  private held = 0;
  /** When the oldest event a flush holds was recorded (ADR 0018's flush lag). */
  private heldSince: number | undefined;
  private droppedCount = 0;
  private threshold = Number.POSITIVE_INFINITY;
  private textFlushAsked = false;
  private onThreshold: () => void = () => {};

  constructor(private readonly max: number, private readonly now: () => number) {
    this.capacity = Math.min(max, FIRST_CAPACITY);
    this.linkIds = new Float64Array(this.capacity);
    this.visitedAt = new Float64Array(this.capacity);
    this.latencyMs = new Float64Array(this.capacity);
    this.agentIndex = new Uint32Array(this.capacity);
    this.refererIndex = new Uint32Array(this.capacity);
    this.addressIndex = new Uint32Array(this.capacity);
    this.served = new Uint8Array(this.capacity);
    this.addresses.indexOf('');
  }

  readonly record: RecordVisit = (linkId, latencyMs, userAgent, referer, address, served = 0) => {
    if (this.count + this.held >= this.max) {
      this.droppedCount += 1;
      return;
    }
    const room = MAX_TEXT_CHARS - this.referers.chars;
    const agent = this.agents.indexOf(userAgent === undefined ? '' : headerPrefix(userAgent, MAX_USER_AGENT), room);
    const refererIndex = agent < 0 ? -1 : this.referers.indexOf(referer === undefined ? '' : refererPrefix(referer), MAX_TEXT_CHARS - this.agents.chars);
    if (refererIndex < 0) {
      this.droppedCount += 1;
      return;
    }
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    this.linkIds[i] = linkId;
    this.visitedAt[i] = this.now();
    this.latencyMs[i] = latencyMs;
    this.agentIndex[i] = agent;
    this.refererIndex[i] = refererIndex;
    this.addressIndex[i] = address === undefined ? 0 : Math.max(0, this.addresses.indexOf(address, MAX_ADDRESS_CHARS));
    this.served[i] = served;
    if (this.count === this.threshold) this.onThreshold();
    else if (!this.textFlushAsked && this.agents.chars + this.referers.chars + this.addresses.chars >= TEXT_FLUSH_CHARS) {
      this.textFlushAsked = true;
      this.onThreshold();
    }
  };

  /** Calls `listener` whenever the waiting events reach `count`, or their header text TEXT_FLUSH_CHARS (the flusher's early flush). */
  onReach(count: number, listener: () => void): void {
    this.threshold = count;
    this.onThreshold = listener;
  }

  /** Events waiting for a flush. */
  get size(): number {
    return this.count;
  }

  /** Events dropped since start: the buffer was full, or a flush gave up on them. */
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
      linkIds: sharedCopy(this.linkIds, size),
      visitedAt: sharedCopy(this.visitedAt, size),
      latencyMs: sharedCopy(this.latencyMs, size),
      agentIndex: this.agentIndex.slice(0, size),
      refererIndex: this.refererIndex.slice(0, size),
      addressIndex: this.addressIndex.slice(0, size),
      served: this.served.slice(0, size),
      agents: this.agents.values,
      referers: this.referers.values,
      addresses: this.addresses.values,
    };
    this.count = 0;
    this.agents = new Dictionary();
    this.referers = new Dictionary();
    this.addresses = new Dictionary();
    this.addresses.indexOf('');
    this.textFlushAsked = false;
    if (this.held === 0) this.heldSince = size > 0 ? taken.visitedAt[0] : undefined;
    this.held += size;
    return taken;
  }

  /** The flush that took `count` events is done with them: written, or given up on (`lost`: counted as dropped). */
  release(count: number, lost = false): void {
    this.held -= count;
    if (lost) this.droppedCount += count;
    if (this.held === 0) this.heldSince = undefined;
  }

  /** Whether the waiting events should be flushed now, without waiting for the interval. */
  get wantsFlush(): boolean {
    return this.count >= this.threshold || this.textFlushAsked;
  }

  private grow(): void {
    this.capacity = Math.min(this.max, this.capacity * 2);
    this.linkIds = copied(this.linkIds, new Float64Array(this.capacity));
    this.visitedAt = copied(this.visitedAt, new Float64Array(this.capacity));
    this.latencyMs = copied(this.latencyMs, new Float64Array(this.capacity));
    this.agentIndex = copied(this.agentIndex, new Uint32Array(this.capacity));
    this.refererIndex = copied(this.refererIndex, new Uint32Array(this.capacity));
    this.addressIndex = copied(this.addressIndex, new Uint32Array(this.capacity));
    this.served = copied(this.served, new Uint8Array(this.capacity));
  }
}

/** `to`, holding `from` at its start. */
function copied<T extends Float64Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
