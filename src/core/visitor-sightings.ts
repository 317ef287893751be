import { dayStartOf, hourStartOf } from './visit-rollups.js';
import type { VisitBatch } from './visit-ports.js';
import type { VisitorSighting } from './visitor-ports.js';

/**
 * Each visitor of the batch once per link and UTC day, in the earliest hour it was seen in: a
 * visitor is new in one hour of its day, so the hours of a day add up to the day's visitors.
 * Visits without an id (bots, previews, no address, a privacy signal) give none.
 * Keyed by numbers, day → link → visitor, never by a string built per visit: this runs for every
 * visit of every flush (ADR 0022).
 */
type Sighting = { -readonly [K in keyof VisitorSighting]: VisitorSighting[K] };

export function visitorSightings(batch: VisitBatch): VisitorSighting[] {
  const ids = batch.visitorIds;
  if (ids === undefined) return [];
  const days = new Map<number, Map<number, Map<number, Sighting>>>();
  const sightings: Sighting[] = [];
  for (let i = 0; i < batch.size; i++) {
    const visitorId = ids[i]!;
    if (Number.isNaN(visitorId)) continue;
    const linkId = batch.linkIds[i]!;
    const visitedAt = batch.visitedAt[i]!;
    const dayStart = dayStartOf(visitedAt);
    let links = days.get(dayStart);
    if (links === undefined) days.set(dayStart, (links = new Map()));
    let visitors = links.get(linkId);
    if (visitors === undefined) links.set(linkId, (visitors = new Map()));
    const earlier = visitors.get(visitorId);
    if (earlier === undefined) {
      const sighting = { linkId, dayStart, hourStart: hourStartOf(visitedAt), visitorId };
      visitors.set(visitorId, sighting);
      sightings.push(sighting);
    } else if (earlier.hourStart > hourStartOf(visitedAt)) {
      earlier.hourStart = hourStartOf(visitedAt);
    }
  }
  return sightings;
}
