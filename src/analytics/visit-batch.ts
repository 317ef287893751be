import type { AnalyticsBatch, VisitFacts } from '../core/analytics-ports.js';
import { classifyVisit } from './classify-visit.js';
import type { RawVisit } from './visit-buffer.js';

/**
 * Classifies buffered events into a batch for the store. Each distinct (User-Agent, Referer) pair
 * is classified once per batch (the same few browsers and referrers make most traffic); a visit
 * costs two map lookups and four array slots. A missing header classifies as an empty one.
 */
export function classifiedBatch(events: readonly RawVisit[]): AnalyticsBatch {
  const size = events.length;
  const linkIds = new Float64Array(size);
  const visitedAt = new Float64Array(size);
  const latencyMs = new Float64Array(size);
  const factsIndex = new Uint32Array(size);
  const facts: VisitFacts[] = [];
  const byAgent = new Map<string, Map<string, number>>();
  for (let i = 0; i < size; i++) {
    const event = events[i]!;
    const agent = event.userAgent ?? '';
    const referer = event.referer ?? '';
    let byReferer = byAgent.get(agent);
    if (byReferer === undefined) byAgent.set(agent, (byReferer = new Map()));
    let index = byReferer.get(referer);
    if (index === undefined) {
      index = facts.push(classifyVisit(agent, referer === '' ? undefined : referer)) - 1;
      byReferer.set(referer, index);
    }
    linkIds[i] = event.linkId;
    visitedAt[i] = event.visitedAt;
    latencyMs[i] = event.latencyMs;
    factsIndex[i] = index;
  }
  return { size, linkIds, visitedAt, latencyMs, factsIndex, facts };
}
