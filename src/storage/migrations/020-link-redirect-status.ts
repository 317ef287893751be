import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { linkChangesUpdateTrigger, type MigrationDb } from './schema-builders.js';

/** The columns of `links` whose change the change log records (migration 014), and the one this migration adds. */
const REDIRECT_COLUMNS_BEFORE = 'domain, code, original_url, expires_at, status, link_type, disabled_reason';
const REDIRECT_COLUMNS = `${REDIRECT_COLUMNS_BEFORE}, redirect_status`;

/**
 * A link's own redirect status (301, 302, 307 or 308; null: the instance's rule by expiry). The
 * archive keeps the column too, since the purge copies every column. On SQLite the change log's
 * update trigger learns it, so every process on the file drops its cached entry when it changes.
 */
export const linkRedirectStatus = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    for (const table of ['links', 'links_archive']) await db.schema.alterTable(table).addColumn('redirect_status', 'integer').execute();
    if (dialect === 'sqlite') {
      await sql`drop trigger link_changes_on_update`.execute(db);
      await linkChangesUpdateTrigger(REDIRECT_COLUMNS).execute(db);
    }
  },
  async down(db: MigrationDb) {
    if (dialect === 'sqlite') {
      await sql`drop trigger if exists link_changes_on_update`.execute(db);
      await linkChangesUpdateTrigger(REDIRECT_COLUMNS_BEFORE).execute(db);
    }
    for (const table of ['links_archive', 'links']) await db.schema.alterTable(table).dropColumn('redirect_status').execute();
  },
});
