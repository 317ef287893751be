import { createHmac } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { dayStartOf } from '../core/visit-rollups.js';
import type { VisitBatch } from '../core/visit-ports.js';
import { VISITOR_ID_BYTES } from '../core/visitor-ports.js';
import type { RawVisits } from './visit-buffer.js';
import { sharedFloat64 } from '../core/shared-columns.js';
import { FLUSH_SLICE_MS } from './flush-slice.js';

/** The salt of a UTC day, or undefined when its visits get no id (visitor-salts.ts). */
export type SaltOf = (dayStart: number) => Promise<Buffer | undefined>;

/** HMAC-SHA256 of (address, User-Agent, link) under the day's salt, its first bytes as an integer. */
export function visitorIdOf(salt: Buffer, address: string, userAgent: string, linkId: number): number {
  return createHmac('sha256', salt).update(`${address}\n${userAgent}\n${linkId}`).digest().readUIntBE(0, VISITOR_ID_BYTES);
}

/**
 * Each visit's visitor id (ADR 0028), computed in the flusher, never on the redirect path: NaN for
 * a bot or a preview, and for a visit recorded without its address (a privacy signal, or the
 * buffer's address text full). The address and the salt stay here; only the ids go on.
 */
export async function visitorIds(visits: RawVisits, batch: VisitBatch, saltOf: SaltOf): Promise<Float64Array | undefined> {
  const ids = sharedFloat64(batch.size).fill(Number.NaN);
  const salts = new Map<number, Buffer | undefined>();
  // One person's clicks of a flush are hashed once: an HMAC costs a few microseconds, a lookup far
  // less. Keyed by numbers (day → address and User-Agent → link), not by a string built per visit.
  const known = new Map<number, Map<number, Map<number, number>>>();
  const agentCount = visits.agents.length;
  let any = false;
  let sliceStart = performance.now();
  for (let i = 0; i < batch.size; i++) {
    const address = visits.addressIndex[i]!;
    if (address === 0 || batch.facts[batch.factsIndex[i]!]!.visitorClass !== 'human') continue;
    const day = dayStartOf(batch.visitedAt[i]!);
    if (!salts.has(day)) salts.set(day, await saltOf(day));
    const salt = salts.get(day);
    if (salt === undefined) continue;
    const agent = visits.agentIndex[i]!;
    const linkId = batch.linkIds[i]!;
    let people = known.get(day);
    if (people === undefined) known.set(day, (people = new Map()));
    const person = address * agentCount + agent;
    let links = people.get(person);
    if (links === undefined) people.set(person, (links = new Map()));
    let id = links.get(linkId);
    if (id === undefined) links.set(linkId, (id = visitorIdOf(salt, visits.addresses[address]!, visits.agents[agent]!, linkId)));
    ids[i] = id;
    any = true;
    if (performance.now() - sliceStart >= FLUSH_SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return any ? ids : undefined;
}
