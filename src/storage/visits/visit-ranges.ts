import type { Kysely } from 'kysely';
import type { Database, VisitRangeRow } from '../schema.js';

/**
 * The `visit_ranges` rows for visit rows just inserted: `ids[i]` is the id of a row of link
 * `linkIds[i]`. One range per link, from its lowest to its highest id (ADR 0016, "Visit ranges").
 */
export function visitRangesOf(ids: ArrayLike<number>, linkIds: ArrayLike<number>): VisitRangeRow[] {
  const byLink = new Map<number, VisitRangeRow>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const linkId = linkIds[i]!;
    const range = byLink.get(linkId);
    if (range === undefined) byLink.set(linkId, { link_id: linkId, first_id: id, last_id: id });
    else {
      if (id < range.first_id) range.first_id = id;
      if (id > range.last_id) range.last_id = id;
    }
  }
  return [...byLink.values()];
}

/** The ids of the visit rows of `linkIds`, read through their ranges (a range of one link may hold rows of others). */
export function visitIdsOf(db: Kysely<Database>, linkIds: readonly number[]) {
  return db.selectFrom('visit_ranges as r')
    .innerJoin('visits as v', (join) => join.onRef('v.id', '>=', 'r.first_id').onRef('v.id', '<=', 'r.last_id').onRef('v.link_id', '=', 'r.link_id'))
    .select('v.id')
    .where('r.link_id', 'in', linkIds);
}

/** Deletes the visit rows of `linkIds` and their ranges. */
export async function deleteVisitsOf(db: Kysely<Database>, linkIds: readonly number[]): Promise<void> {
  if (linkIds.length === 0) return;
  await db.deleteFrom('visits').where('visits.id', 'in', visitIdsOf(db, linkIds)).execute();
  await db.deleteFrom('visit_ranges').where('visit_ranges.link_id', 'in', linkIds).execute();
}
