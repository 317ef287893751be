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
 * The positions in `batch` of the visits whose link is in `existing`, by link and then in arrival
 * order. A flush writes its visit rows in this order, so each link's rows get consecutive ids and
 * one visit range covers exactly them (storage/visit-ranges.ts, ADR 0016).
 */
export function visitsByLink(batch: AnalyticsBatch, existing: ReadonlySet<number>): number[] {
  // Buckets, not a sort of the visits with a comparator: that sort was a tenth of the writer
  // thread's time per flush of 50,000 visits; here only the distinct links are sorted.
  const byLink = new Map<number, number[]>();
  for (let i = 0; i < batch.size; i++) {
    const linkId = batch.linkIds[i]!;
    if (!existing.has(linkId)) continue;
    const visits = byLink.get(linkId);
    if (visits === undefined) byLink.set(linkId, [i]);
    else visits.push(i);
  }
  return [...byLink.keys()].sort((a, b) => a - b).flatMap((linkId) => byLink.get(linkId)!);
}
