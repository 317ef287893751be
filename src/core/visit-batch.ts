import type { VisitBatch, Visit, VisitFacts } from './visit-ports.js';
import { sharedFloat64, sharedUint32 } from './shared-columns.js';

/** A batch of the given visits, each distinct set of facts once (tests and benchmarks build batches this way). */
export function batchOfVisits(visits: readonly Visit[]): VisitBatch {
  const size = visits.length;
  const batch = {
    size,
    linkIds: sharedFloat64(size),
    visitedAt: sharedFloat64(size),
    latencyMs: sharedFloat64(size),
    factsIndex: sharedUint32(size),
    facts: [] as VisitFacts[],
    visitorIds: visits.some((visit) => visit.visitorId !== undefined) ? sharedFloat64(size).fill(Number.NaN) : undefined,
  };
  const known = new Map<string, number>();
  visits.forEach((visit, i) => {
    const facts: VisitFacts = {
      visitorClass: visit.visitorClass, referrerHost: visit.referrerHost, browser: visit.browser, os: visit.os, device: visit.device,
      country: visit.country ?? null, region: visit.region ?? null, city: visit.city ?? null,
      ...(visit.destination ? { destination: visit.destination } : {}),
    };
    const key = JSON.stringify(facts);
    let index = known.get(key);
    if (index === undefined) {
      index = batch.facts.push(facts) - 1;
      known.set(key, index);
    }
    batch.linkIds[i] = visit.linkId;
    batch.visitedAt[i] = visit.visitedAt;
    batch.latencyMs[i] = visit.latencyMs;
    batch.factsIndex[i] = index;
    if (batch.visitorIds !== undefined && visit.visitorId !== undefined) batch.visitorIds[i] = visit.visitorId;
  });
  return batch;
}

/**
 * A batch's visits grouped by link: `order` holds positions in the batch, link after link (in
 * ascending id order), each link's in arrival order; the visits of `linkIds[k]` are
 * `order[starts[k]]` up to, not including, `order[starts[k + 1]]`.
 */
export interface VisitsByLink {
  readonly order: Uint32Array;
  readonly linkIds: readonly number[];
  readonly starts: Uint32Array;
}

/**
 * The visits of the links in `existing` (of every link without it), grouped by link. A flush writes its visit rows in this
 * order, so each link's rows get consecutive ids and one visit range covers exactly them
 * (storage/visit-ranges.ts, ADR 0016). A counting sort into typed arrays: the writer thread's
 * heap gets nothing per visit, where a sort of the positions with a comparator was a tenth of its
 * time and an array per link kept its collector busy.
 */
export function visitsByLink(batch: VisitBatch, existing?: Pick<ReadonlySet<number>, 'has'>): VisitsByLink {
  const steps = groupedByLink(batch, existing);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Visits between two pause points of a long computation (`undefined` yielded: the caller may let the event loop run). */
const PAUSE_EVERY = 4_096;

function* groupedByLink(batch: VisitBatch, existing?: Pick<ReadonlySet<number>, 'has'>): Generator<undefined, VisitsByLink> {
  const slotOf = new Map<number, number>();
  const counts = new Uint32Array(batch.size);
  const slots = new Int32Array(batch.size);
  for (let i = 0; i < batch.size; i++) {
    if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield undefined;
    const linkId = batch.linkIds[i]!;
    if (existing !== undefined && !existing.has(linkId)) {
      slots[i] = -1;
      continue;
    }
    let slot = slotOf.get(linkId);
    if (slot === undefined) {
      slot = slotOf.size;
      slotOf.set(linkId, slot);
    }
    slots[i] = slot;
    counts[slot]! += 1;
  }
  const sorted = Float64Array.from(slotOf.keys()).sort();
  yield undefined;
  const linkIds = Array.from(sorted);
  const starts = new Uint32Array(linkIds.length + 1);
  const next = new Uint32Array(slotOf.size);
  let at = 0;
  for (let k = 0; k < sorted.length; k++) {
    const slot = slotOf.get(sorted[k]!)!;
    starts[k] = next[slot] = at;
    at += counts[slot]!;
  }
  starts[linkIds.length] = at;
  yield undefined;
  const order = new Uint32Array(at);
  for (let i = 0; i < batch.size; i++) {
    if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield undefined;
    const slot = slots[i]!;
    if (slot >= 0) order[next[slot]!++] = i;
  }
  return { order, linkIds, starts };
}

/** How much one write of a batch may carry: visits, distinct links, distinct sets of facts, and the characters of those facts. */
export interface BatchPartLimits {
  readonly visits: number;
  readonly links: number;
  readonly facts: number;
  readonly factsChars: number;
}

const factsChars = (f: VisitFacts) =>
  f.visitorClass.length + (f.referrerHost?.length ?? 0) + (f.browser?.length ?? 0) + (f.os?.length ?? 0) + (f.device?.length ?? 0);

/** Whether the batch goes in one write as it is, with a pause point every few thousand visits while its links are counted. */
function* fitsWhole(batch: VisitBatch, limits: BatchPartLimits): Generator<undefined, boolean> {
  if (batch.size > limits.visits || batch.facts.length > limits.facts) return false;
  if (batch.facts.reduce((sum, f) => sum + factsChars(f), 0) > limits.factsChars) return false;
  if (batch.size <= limits.links) return true;
  const links = new Set<number>();
  for (let i = 0; i < batch.size; i++) {
    if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield undefined;
    links.add(batch.linkIds[i]!);
    if (links.size > limits.links) return false;
  }
  return true;
}

/**
 * `batch` cut into parts, each within `limits` (a visit whose facts alone pass `factsChars` still
 * goes, alone in its part). A part's facts are only those its visits use, so what one write
 * carries is bounded in bytes as well as in visits, whatever the headers were (ADR 0013, "Bounded
 * writes"); its distinct links are bounded too, so that one write of a flush over many links is
 * short work for the embedded writer, and a client's write queued behind it waits for little
 * (ADR 0023). A batch that fits stays whole, in arrival order. One that does not is cut link by
 * link (in ascending id order, each link's visits in arrival order): a link's visits all go in one
 * part unless they alone pass `visits`, so its counters and roll-up rows are written once per
 * flush however many links the flush holds.
 */
export function splitBatch(batch: VisitBatch, limits: BatchPartLimits): VisitBatch[] {
  return [...batchParts(batch, limits)].filter((part) => part !== undefined);
}

/**
 * splitBatch's parts one by one, with pause points (`undefined`) every few thousand visits of
 * every step (checking whether the batch fits whole, grouping, cutting, copying a part), so that
 * the thread that answers redirects can cut a flush of 50,000 visits, over many links or few,
 * without holding its event loop for more than a few milliseconds at a time.
 */
export function* batchParts(batch: VisitBatch, limits: BatchPartLimits): Generator<VisitBatch | undefined> {
  if (batch.size === 0) return;
  if (yield* fitsWhole(batch, limits)) {
    yield batch;
    return;
  }
  const { order, linkIds, starts } = yield* groupedByLink(batch);
  const cuts: PartCut[] = [];
  let local = new Map<number, number>();
  let from = 0;
  let links = 0;
  let chars = 0;
  const cut = (to: number) => {
    cuts.push({ positions: order.subarray(from, to), local });
    from = to;
    local = new Map();
    links = 0;
    chars = 0;
  };
  for (let k = 0; k < linkIds.length; k++) {
    if (links === limits.links) cut(starts[k]!);
    while (cuts.length > 0) yield* gathered(batch, cuts.shift()!);
    let inPart = false;
    for (let at = starts[k]!; at < starts[k + 1]!; at++) {
      if (at % PAUSE_EVERY === PAUSE_EVERY - 1) yield undefined;
      const index = batch.factsIndex[order[at]!]!;
      if (!local.has(index)) {
        const more = factsChars(batch.facts[index]!);
        if (at > from && (local.size + 1 > limits.facts || chars + more > limits.factsChars)) {
          cut(at);
          inPart = false;
        }
        local.set(index, local.size);
        chars += more;
      }
      if (!inPart) {
        links += 1;
        inPart = true;
      }
      if (at + 1 - from >= limits.visits) {
        cut(at + 1);
        inPart = false;
      }
    }
  }
  if (from < order.length) cut(order.length);
  for (const partCut of cuts) yield* gathered(batch, partCut);
}

/** Where a part was cut: its visits' positions in the batch, and its facts numbered in first-use order. */
interface PartCut {
  readonly positions: Uint32Array;
  readonly local: ReadonlyMap<number, number>;
}

/**
 * The visits at `positions` as a batch of their own, with the facts `local` numbers, yielded after
 * a pause point every few thousand visits copied. Copies on shared memory (shared-columns.ts), not
 * views: the writer thread would be handed the whole buffer under a view.
 */
function* gathered(batch: VisitBatch, { positions, local }: PartCut): Generator<VisitBatch | undefined> {
  const size = positions.length;
  const facts = new Array<VisitFacts>(local.size);
  for (const [index, at] of local) facts[at] = batch.facts[index]!;
  const part = { size, linkIds: sharedFloat64(size), visitedAt: sharedFloat64(size), latencyMs: sharedFloat64(size), factsIndex: sharedUint32(size), facts };
  const visitorIds = batch.visitorIds && sharedFloat64(size);
  for (let k = 0; k < size; k++) {
    if (k % PAUSE_EVERY === PAUSE_EVERY - 1) yield undefined;
    const i = positions[k]!;
    if (visitorIds) visitorIds[k] = batch.visitorIds![i]!;
    part.linkIds[k] = batch.linkIds[i]!;
    part.visitedAt[k] = batch.visitedAt[i]!;
    part.latencyMs[k] = batch.latencyMs[i]!;
    part.factsIndex[k] = local.get(batch.factsIndex[i]!)!;
  }
  yield visitorIds ? { ...part, visitorIds } : part;
}
