import { dayStartOf, hourStartOf } from './visit-rollups.js';
import type { VisitBatch } from './visit-ports.js';
import type { VisitorSighting } from './visitor-ports.js';

/**
 * Each visitor of the batch once per link and UTC day, in the earliest hour it was seen in: a
 * visitor is new in one hour of its day, so the hours of a day add up to the day's visitors.
 * Visits without an id (bots, previews, no address, a privacy signal) give none.
 */
export function visitorSightings(batch: VisitBatch): VisitorSighting[] {
  const ids = batch.visitorIds;
  if (ids === undefined) return [];
  const seen = new Map<string, VisitorSighting>();
  for (let i = 0; i < batch.size; i++) {
    const visitorId = ids[i]!;
    if (Number.isNaN(visitorId)) continue;
    const linkId = batch.linkIds[i]!;
    const visitedAt = batch.visitedAt[i]!;
    const dayStart = dayStartOf(visitedAt);
    const key = `${linkId} ${dayStart} ${visitorId}`;
    const earlier = seen.get(key);
    if (earlier === undefined || earlier.hourStart > hourStartOf(visitedAt)) {
      seen.set(key, { linkId, dayStart, hourStart: hourStartOf(visitedAt), visitorId });
    }
  }
  return [...seen.values()];
}
