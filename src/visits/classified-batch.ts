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

/** The country (ISO 3166-1 alpha-2) of a client address; null when unknown. */
export type CountryOf = (address: string) => string | null;

/** Countries of one batch at most, besides "unknown": more than there are, so a key never overflows. */
const COUNTRY_SLOTS = 512;

/**
 * Classifies buffered events into a batch for the store. Each distinct (User-Agent, Referer,
 * country) is classified once per batch (the same few browsers and referrers make most traffic);
 * each distinct address is looked up once (`countryOf`), and only its country goes on: the address
 * is not in the batch. A visit costs a map lookup by a few numbers. A missing header classifies as
 * an empty one; without `countryOf` (or for a visit recorded without its address) the country is unknown.
 */
export async function classifiedBatch(visits: RawVisits, sliceMs = SLICE_MS, countryOf?: CountryOf): Promise<VisitBatch> {
  const { size, agents, referers } = visits;
  const factsIndex = new Uint32Array(size);
  const facts: VisitFacts[] = [];
  const byKey = new Map<number, number>();
  const countryOfAddress = new Int32Array(visits.addresses.length).fill(-1);
  const countries: (string | null)[] = [null];
  const countrySlots = new Map<string | null, number>([[null, 0]]);
  let sliceStart = performance.now();
  for (let i = 0; i < size; i++) {
    const agent = visits.agentIndex[i]!;
    const referer = visits.refererIndex[i]!;
    const address = visits.addressIndex[i]!;
    let country = countryOfAddress[address]!;
    if (country < 0) {
      const code = address === 0 || countryOf === undefined ? null : countryOf(visits.addresses[address]!);
      country = countrySlots.get(code) ?? (countries.length < COUNTRY_SLOTS ? countries.push(code) - 1 : 0);
      countrySlots.set(code, country);
      countryOfAddress[address] = country;
    }
    const key = (agent * referers.length + referer) * COUNTRY_SLOTS + country;
    let index = byKey.get(key);
    if (index === undefined) {
      const refererValue = referers[referer]!;
      const classified = classifyVisit(agents[agent]!, refererValue === '' ? undefined : refererValue);
      index = facts.push(country === 0 ? classified : { ...classified, country: countries[country] }) - 1;
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
