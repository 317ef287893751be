import type { VisitBatch } from './visit-ports.js';
import type { LinkClicks } from './webhook-ports.js';

/** Visits per link in a flush's batch, in the order the links first appear. */
export function clicksOf(batch: VisitBatch): LinkClicks[] {
  const counts = new Map<number, number>();
  for (let i = 0; i < batch.size; i++) {
    const linkId = batch.linkIds[i]!;
    counts.set(linkId, (counts.get(linkId) ?? 0) + 1);
  }
  return [...counts].map(([linkId, count]) => ({ linkId, count }));
}
