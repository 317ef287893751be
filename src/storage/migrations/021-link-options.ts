import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { linkChangesUpdateTrigger, type MigrationDb } from './schema-builders.js';

/** The columns of `links` whose change the change log records (migration 020), and the ones this migration adds. */
const REDIRECT_COLUMNS_BEFORE = 'domain, code, original_url, expires_at, status, link_type, disabled_reason, redirect_status';
const REDIRECT_COLUMNS = `${REDIRECT_COLUMNS_BEFORE}, options, password_hash, max_clicks`;

const COLUMNS = [['options', 'text'], ['password_hash', 'text'], ['max_clicks', 'integer'], ['clicks_left', 'integer']] as const;

/**
 * A link's options (ADR 0031): the JSON of its fallback URL, confirmation page, routes, variants
 * and preview; its password's hash; its click limit and the clicks left. The change log learns
 * the first three on SQLite, so every process drops its cached entry when they change; the clicks
 * left are never cached (a limited redirect decrements them in the database), so it need not.
 */
export const linkOptions = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    for (const table of ['links', 'links_archive']) {
      for (const [name, type] of COLUMNS) await db.schema.alterTable(table).addColumn(name, type).execute();
    }
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
    for (const table of ['links_archive', 'links']) {
      for (const [name] of [...COLUMNS].reverse()) await db.schema.alterTable(table).dropColumn(name).execute();
    }
  },
});
