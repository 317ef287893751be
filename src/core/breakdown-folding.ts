import type { BreakdownDimension, DailyBreakdown, LinkDay, StoredDayValues, VisitBatch, VisitFacts } from './visit-ports.js';
import { breakdownValue, FACT_OF, OTHER_VALUE } from './breakdown-values.js';
import { dayStartOf } from './visit-rollups.js';

export type { StoredDayValues } from './visit-ports.js';
export { OTHER_VALUE } from './breakdown-values.js';

/**
 * Distinct values per link, UTC day and dimension in `link_breakdown_daily` (ADR 0021). The stats
 * API lists the top 10 of each dimension: 100 keeps far more than it shows, and a link's day
 * grows by at most 101 rows per dimension and class, whatever its visitors send.
 */
export const MAX_VALUES_PER_DAY = 100;

/** One link's UTC day, as a map key. */
export const linkDayKey = (linkId: number, dayStart: number) => `${linkId} ${dayStart}`;

/** The link days a batch's breakdown rows touch, each once: what a store reads before folding. */
export function linkDaysOf(daily: readonly DailyBreakdown[]): LinkDay[] {
  const days = new Map<string, LinkDay>();
  for (const { linkId, dayStart } of daily) days.set(linkDayKey(linkId, dayStart), { linkId, dayStart });
  return [...days.values()];
}

/**
 * The breakdown rows of the links that may pass the cap: only their days are read and folded. A
 * day's distinct values in one dimension never outnumber the link's clicks, so a link with at most
 * `maxValues` clicks after the batch (`clicksAfter`, from the counters' update) cannot fold that
 * day: most links of a flush spread over many links are such. A link `clicksAfter` does not know
 * (an import's) may.
 */
export function rowsThatMayFold(daily: readonly DailyBreakdown[], clicksAfter?: ReadonlyMap<number, number>, maxValues = MAX_VALUES_PER_DAY): readonly DailyBreakdown[] {
  if (clicksAfter === undefined) return daily;
  return daily.filter(({ linkId }) => !((clicksAfter.get(linkId) ?? Infinity) <= maxValues));
}

/**
 * Which of the batch's values fold, by link day and dimension. A value the day holds already
 * never folds; new values take the room left under `maxValues`, most clicked first (ties by
 * value), so a flood arriving beside a real referrer does not push it out.
 */
function foldedValues(daily: readonly DailyBreakdown[], stored: ReadonlyMap<string, StoredDayValues>, maxValues: number) {
  const folded = new Map<string, Map<BreakdownDimension, Set<string>>>();
  // Most flushes bring no value their link days lack: nothing to count then.
  if (daily.every((row) => stored.get(linkDayKey(row.linkId, row.dayStart))?.get(row.dimension)?.has(row.value))) return folded;
  const clicksByGroup = new Map<string, Map<string, number>>();
  for (const row of daily) {
    const group = `${linkDayKey(row.linkId, row.dayStart)} ${row.dimension}`;
    let values = clicksByGroup.get(group);
    if (values === undefined) clicksByGroup.set(group, (values = new Map()));
    values.set(row.value, (values.get(row.value) ?? 0) + row.clicks);
  }
  for (const [group, values] of clicksByGroup) {
    const cut = group.lastIndexOf(' ');
    const day = group.slice(0, cut);
    const dimension = group.slice(cut + 1) as BreakdownDimension;
    const known = stored.get(day)?.get(dimension) ?? new Set<string>();
    const room = maxValues - (known.size - (known.has(OTHER_VALUE) ? 1 : 0));
    const fresh = [...values.keys()].filter((value) => value !== OTHER_VALUE && !known.has(value));
    if (fresh.length <= room) continue;
    fresh.sort((a, b) => values.get(b)! - values.get(a)! || (a < b ? -1 : 1));
    let dimensions = folded.get(day);
    if (dimensions === undefined) folded.set(day, (dimensions = new Map()));
    dimensions.set(dimension, new Set(fresh.slice(Math.max(0, room))));
  }
  return folded;
}

/**
 * The batch with every value past its link day's cap replaced by OTHER_VALUE, in the facts its
 * visits point at, so the breakdown and the visit rows both hold the folded value and every
 * click still counts. `stored` holds the days' values in the database (by linkDayKey); `daily`
 * is the batch's breakdown rows. Answers the batch itself when nothing folds: then no visit is
 * looked at again. The original facts keep their indexes; folded variants are appended.
 */
export function foldedBatch(batch: VisitBatch, daily: readonly DailyBreakdown[], stored: ReadonlyMap<string, StoredDayValues>, maxValues = MAX_VALUES_PER_DAY): VisitBatch {
  const folded = foldedValues(daily, stored, maxValues);
  if (folded.size === 0) return batch;
  const facts = [...batch.facts];
  const indexOfFacts = new Map<string, number>();
  const remapped = new Map<string, number>();
  const factsIndex = new Uint32Array(batch.size);
  for (let i = 0; i < batch.size; i++) {
    const original = batch.factsIndex[i]!;
    factsIndex[i] = original;
    const day = linkDayKey(batch.linkIds[i]!, dayStartOf(batch.visitedAt[i]!));
    const dimensions = folded.get(day);
    if (dimensions === undefined) continue;
    const key = `${day} ${original}`;
    let index = remapped.get(key);
    if (index === undefined) {
      const variant = foldedFacts(batch.facts[original]!, dimensions);
      if (variant === undefined) index = original;
      else {
        const text = JSON.stringify(variant);
        index = indexOfFacts.get(text);
        if (index === undefined) indexOfFacts.set(text, (index = facts.push(variant) - 1));
      }
      remapped.set(key, index);
    }
    factsIndex[i] = index;
  }
  return { ...batch, factsIndex, facts };
}

function foldedFacts(facts: VisitFacts, dimensions: ReadonlyMap<BreakdownDimension, ReadonlySet<string>>): VisitFacts | undefined {
  let variant: { -readonly [K in keyof VisitFacts]: VisitFacts[K] } | undefined;
  for (const [dimension, values] of dimensions) {
    const value = breakdownValue(facts, dimension);
    if (value === null || !values.has(value)) continue;
    variant ??= { ...facts };
    // A folded city keeps its country and region: only the city's own row is past the cap.
    variant[dimension === 'city' ? 'city' : FACT_OF[dimension]] = OTHER_VALUE;
  }
  return variant;
}
