import { sql, type Migration } from 'kysely';
import type { MigrationDb } from './schema-builders.js';

/**
 * `visit_ranges` in place of the index on visits (link_id, visited_at) (ADR 0016, "Visit ranges"):
 * each flush writes its visit rows grouped by link and one range per link, so finding a link's
 * visits (purge, export) reads its ranges and then visits by id. Existing visits get a range per
 * run of consecutive ids of one link (gaps and islands: id − row number is constant along a run).
 */
export const visitRanges: Migration = {
  async up(db: MigrationDb) {
    await db.schema.createTable('visit_ranges')
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('first_id', 'bigint', (c) => c.notNull())
      .addColumn('last_id', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('visit_ranges_pkey', ['link_id', 'first_id'])
      .execute();
    await db.schema.createIndex('visit_ranges_last_id_idx').on('visit_ranges').column('last_id').execute();
    await sql`insert into visit_ranges (link_id, first_id, last_id)
      select link_id, min(id), max(id) from (
        select id, link_id, id - row_number() over (partition by link_id order by id) as run from visits
      ) as numbered group by link_id, run`.execute(db);
    await db.schema.dropIndex('visits_link_time_idx').execute();
  },
};
