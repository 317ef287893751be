import type { AnalyticsBatch } from '../core/analytics-ports.js';

/**
 * Visits the writer thread rolls up at once. Rolling a batch up costs its heap about 1 KB per
 * visit of a distinct link, and the writer's heap is capped (sqlite-writer.ts): a flush of 40,000
 * distinct links (ANALYTICS_BUFFER_MAX allows 100,000) ended the thread with "JS heap out of
 * memory", failed every write in flight with it, and its retry did the same (docs/adr/0020).
 */
export const ANALYTICS_SLICE_VISITS = 10_000;

/**
 * The batch in consecutive slices of at most `size` visits, sharing its `facts`: views of its
 * arrays, no copies. Writing the slices one after the other in one transaction writes what the
 * whole batch would: counters add up, and the mean merge of each slice is exact.
 */
export function* batchSlices(batch: AnalyticsBatch, size = ANALYTICS_SLICE_VISITS): Generator<AnalyticsBatch> {
  if (batch.size <= size) {
    yield batch;
    return;
  }
  for (let start = 0; start < batch.size; start += size) {
    const end = Math.min(batch.size, start + size);
    yield {
      size: end - start,
      linkIds: batch.linkIds.subarray(start, end),
      visitedAt: batch.visitedAt.subarray(start, end),
      latencyMs: batch.latencyMs.subarray(start, end),
      factsIndex: batch.factsIndex.subarray(start, end),
      facts: batch.facts,
    };
  }
}
