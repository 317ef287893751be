import type { VisitBatch } from '../../core/visit-ports.js';

/**
 * Distinct links the writer thread rolls up at once. Rolling a batch up costs its heap about 1 KB
 * per distinct link, and the writer's heap is capped (sqlite-writer.ts): a flush of 40,000
 * distinct links (ANALYTICS_BUFFER_MAX allows 100,000) ended the thread with "JS heap out of
 * memory", failed every write in flight with it, and its retry did the same. At 10,000 a slice
 * still held ~10 MB of the writer's heap at full speed over many links; 2,000 keeps it near 2 MB,
 * and a slice's fixed cost is a few statements (docs/adr/0020).
 */
export const MAX_LINKS_PER_SLICE = 2_000;

/**
 * The batch in consecutive slices of at most `maxLinks` distinct links, sharing its `facts`:
 * views of its arrays, no copies. A batch of a few hot links stays whole, so its links' counters
 * and roll-up rows are written once. Writing the slices one after the other in one transaction
 * writes what the whole batch would: counters add up, and the mean merge of each slice is exact.
 */
export function* batchSlices(batch: VisitBatch, maxLinks = MAX_LINKS_PER_SLICE): Generator<VisitBatch> {
  let start = 0;
  let links = new Set<number>();
  for (let i = 0; i < batch.size; i++) {
    const linkId = batch.linkIds[i]!;
    if (links.has(linkId)) continue;
    if (links.size === maxLinks) {
      yield slice(batch, start, i);
      start = i;
      links = new Set();
    }
    links.add(linkId);
  }
  yield start === 0 ? batch : slice(batch, start, batch.size);
}

function slice(batch: VisitBatch, start: number, end: number): VisitBatch {
  return {
    size: end - start,
    linkIds: batch.linkIds.subarray(start, end),
    visitedAt: batch.visitedAt.subarray(start, end),
    latencyMs: batch.latencyMs.subarray(start, end),
    factsIndex: batch.factsIndex.subarray(start, end),
    facts: batch.facts,
    visitorIds: batch.visitorIds?.subarray(start, end),
  };
}
