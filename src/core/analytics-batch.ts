import type { AnalyticsBatch, Visit, VisitFacts } from './analytics-ports.js';

/** A batch of the given visits, each distinct set of facts once (tests and benchmarks build batches this way). */
export function batchOfVisits(visits: readonly Visit[]): AnalyticsBatch {
  const size = visits.length;
  const batch = {
    size,
    linkIds: new Float64Array(size),
    visitedAt: new Float64Array(size),
    latencyMs: new Float64Array(size),
    factsIndex: new Uint32Array(size),
    facts: [] as VisitFacts[],
  };
  const known = new Map<string, number>();
  visits.forEach((visit, i) => {
    const facts: VisitFacts = {
      visitorClass: visit.visitorClass, referrerHost: visit.referrerHost, browser: visit.browser, os: visit.os, device: visit.device,
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
 * The visits of the links in `existing`, grouped by link. A flush writes its visit rows in this
 * order, so each link's rows get consecutive ids and one visit range covers exactly them
 * (storage/visit-ranges.ts, ADR 0016). A counting sort into typed arrays: the writer thread's
 * heap gets nothing per visit, where a sort of the positions with a comparator was a tenth of its
 * time and an array per link kept its collector busy.
 */
export function visitsByLink(batch: AnalyticsBatch, existing: ReadonlySet<number>): VisitsByLink {
  const slotOf = new Map<number, number>();
  const counts: number[] = [];
  const slots = new Int32Array(batch.size);
  for (let i = 0; i < batch.size; i++) {
    const linkId = batch.linkIds[i]!;
    if (!existing.has(linkId)) {
      slots[i] = -1;
      continue;
    }
    let slot = slotOf.get(linkId);
    if (slot === undefined) {
      slot = counts.push(0) - 1;
      slotOf.set(linkId, slot);
    }
    slots[i] = slot;
    counts[slot]! += 1;
  }
  const linkIds = [...slotOf.keys()].sort((a, b) => a - b);
  const starts = new Uint32Array(linkIds.length + 1);
  const next = new Uint32Array(counts.length);
  let at = 0;
  linkIds.forEach((linkId, k) => {
    const slot = slotOf.get(linkId)!;
    starts[k] = next[slot] = at;
    at += counts[slot]!;
  });
  starts[linkIds.length] = at;
  const order = new Uint32Array(at);
  for (let i = 0; i < batch.size; i++) {
    const slot = slots[i]!;
    if (slot >= 0) order[next[slot]!++] = i;
  }
  return { order, linkIds, starts };
}
