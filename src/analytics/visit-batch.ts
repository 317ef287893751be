import type { AnalyticsBatch, VisitFacts } from '../core/analytics-ports.js';
import { classifyVisit } from './classify-visit.js';
import type { RawVisits } from './visit-buffer.js';

/**
 * Classifies buffered events into a batch for the store. Each distinct (User-Agent, Referer) pair
 * is classified once per batch (the same few browsers and referrers make most traffic); a visit
 * costs one map lookup by two numbers. A missing header classifies as an empty one.
 */
export function classifiedBatch(visits: RawVisits): AnalyticsBatch {
  const { size, agents, referers } = visits;
  const factsIndex = new Uint32Array(size);
  const facts: VisitFacts[] = [];
  const byPair = new Map<number, number>();
  for (let i = 0; i < size; i++) {
    const agent = visits.agentIndex[i]!;
    const referer = visits.refererIndex[i]!;
    const pair = agent * referers.length + referer;
    let index = byPair.get(pair);
    if (index === undefined) {
      const refererValue = referers[referer]!;
      index = facts.push(classifyVisit(agents[agent]!, refererValue === '' ? undefined : refererValue)) - 1;
      byPair.set(pair, index);
    }
    factsIndex[i] = index;
  }
  return { size, linkIds: visits.linkIds, visitedAt: visits.visitedAt, latencyMs: visits.latencyMs, factsIndex, facts };
}
