import { setImmediate as nextTurn } from 'node:timers/promises';
import type { VisitBatch, VisitFacts } from '../core/visit-ports.js';
import { classifyVisit } from './visit-classifier.js';
import type { RawVisits } from './visit-buffer.js';

/**
 * The longest classification runs before it lets the event loop answer what waits: a batch of new
 * User-Agents (each parsed afresh) then costs redirects a few milliseconds per turn, never the
 * whole batch at once (ADR 0013, "Classification off the redirect's way").
 */
const SLICE_MS = 4;

/**
 * Classifies buffered events into a batch for the store. Each distinct (User-Agent, Referer) pair
 * is classified once per batch (the same few browsers and referrers make most traffic); a visit
 * costs one map lookup by two numbers. A missing header classifies as an empty one.
 */
export async function classifiedBatch(visits: RawVisits, sliceMs = SLICE_MS): Promise<VisitBatch> {
  const { size, agents, referers } = visits;
  const factsIndex = new Uint32Array(size);
  const facts: VisitFacts[] = [];
  const byPair = new Map<number, number>();
  let sliceStart = performance.now();
  for (let i = 0; i < size; i++) {
    const agent = visits.agentIndex[i]!;
    const referer = visits.refererIndex[i]!;
    const pair = agent * referers.length + referer;
    let index = byPair.get(pair);
    if (index === undefined) {
      const refererValue = referers[referer]!;
      index = facts.push(classifyVisit(agents[agent]!, refererValue === '' ? undefined : refererValue)) - 1;
      byPair.set(pair, index);
      if (performance.now() - sliceStart >= sliceMs) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    factsIndex[i] = index;
  }
  return { size, linkIds: visits.linkIds, visitedAt: visits.visitedAt, latencyMs: visits.latencyMs, factsIndex, facts };
}
