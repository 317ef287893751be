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
