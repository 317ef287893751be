import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { linkChangesUpdateTrigger, type MigrationDb } from './schema-builders.js';

/** The columns of `links` whose change the change log records (migration 012), and the one this migration adds. */
const REDIRECT_COLUMNS_BEFORE = 'domain, code, original_url, expires_at, status, link_type';
const REDIRECT_COLUMNS = `${REDIRECT_COLUMNS_BEFORE}, disabled_reason`;

/**
 * What a service's operator controls (docs/operations.md, "The operator's page"): a link the
 * operator disabled (`disabled_reason` is what its 410 says; the row keeps its own status, so its
 * owner's delete and restore never undo the operator's word) and a user the operator disabled.
 * The archive keeps the link columns too, since the purge copies every column. On SQLite the
 * change log's update trigger learns the new column, so every process on the file drops its
 * cached entry of a link disabled or enabled by another.
 */
export const operatorControls = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    for (const table of ['links', 'links_archive']) {
      await db.schema.alterTable(table).addColumn('disabled_at', 'bigint').execute();
      await db.schema.alterTable(table).addColumn('disabled_reason', 'text').execute();
      await db.schema.alterTable(table).addColumn('disabled_by', 'bigint').execute();
    }
    await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
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
    await db.schema.alterTable('users').dropColumn('disabled_at').execute();
    for (const table of ['links_archive', 'links']) {
      for (const column of ['disabled_by', 'disabled_reason', 'disabled_at']) await db.schema.alterTable(table).dropColumn(column).execute();
    }
  },
});
