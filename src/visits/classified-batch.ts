import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Place, VisitBatch, VisitFacts } from '../core/visit-ports.js';
import { NOTHING_SERVED, servedOfCode } from '../core/served-code.js';
import { classifyVisit } from './visit-classifier.js';
import { PLACE_SLOTS, PlaceSlots } from './place-slots.js';
import type { RawVisits } from './visit-buffer.js';
import { FLUSH_SLICE_MS } from './flush-slice.js';
import { sharedUint32 } from '../core/shared-columns.js';

/** Where a client address is (its country, and region and city when the database has them); null when unknown. */
export type PlaceOf = (address: string) => Place | null;

/**
 * Classifies buffered events into a batch for the store. Each distinct (User-Agent, Referer,
 * place) is classified once per batch (the same few browsers and referrers make most traffic);
 * each distinct address is looked up once (`placeOf`), and only its place goes on: the address
 * is not in the batch. A visit served by a route or variant has it as a fact (`destination`). A visit costs a map lookup by a few numbers. A missing header classifies as
 * an empty one; without `placeOf` (or for a visit recorded without its address) the place is unknown.
 */
export async function classifiedBatch(visits: RawVisits, sliceMs = FLUSH_SLICE_MS, placeOf?: PlaceOf): Promise<VisitBatch> {
  const { size, agents, referers } = visits;
  const factsIndex = sharedUint32(size);
  const facts: VisitFacts[] = [];
  // One map per served code (core/served-code.ts), so that a key stays the number it was: most visits are of plain links (code 0).
  const byServedKey: Map<number, number>[] = [];
  const placeOfAddress = new Int32Array(visits.addresses.length).fill(-1);
  const places = new PlaceSlots();
  let sliceStart = performance.now();
  for (let i = 0; i < size; i++) {
    const agent = visits.agentIndex[i]!;
    const referer = visits.refererIndex[i]!;
    const address = visits.addressIndex[i]!;
    let place = placeOfAddress[address]!;
    if (place < 0) {
      place = places.slotOf(address === 0 || placeOf === undefined ? null : placeOf(visits.addresses[address]!));
      placeOfAddress[address] = place;
    }
    const key = (agent * referers.length + referer) * PLACE_SLOTS + place;
    const served = visits.served[i]!;
    const byKey = (byServedKey[served] ??= new Map());
    let index = byKey.get(key);
    if (index === undefined) {
      const refererValue = referers[referer]!;
      const classified = classifyVisit(agents[agent]!, refererValue === '' ? undefined : refererValue);
      const placed = place === 0 ? classified : { ...classified, ...places.placeAt(place) };
      index = facts.push(served === NOTHING_SERVED ? placed : { ...placed, destination: servedOfCode(served) }) - 1;
      byKey.set(key, index);
      if (performance.now() - sliceStart >= sliceMs) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    factsIndex[i] = index;
  }
  return { size, linkIds: visits.linkIds, visitedAt: visits.visitedAt, latencyMs: visits.latencyMs, factsIndex, facts };
}
