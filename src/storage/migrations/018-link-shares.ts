import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { time, withId, type MigrationDb } from './schema-builders.js';

/**
 * Read-only share addresses of a link's stats (ADR 0029): only the SHA-256 of each random token is
 * stored, looked up by its unique index. A partial unique index keeps one active share per link.
 * No foreign key to `links`: the reaper purges links, and a share of a purged link simply finds no
 * link (as `visits` rows do).
 */
export const linkShares = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await withId(db.schema.createTable('link_shares'), dialect)
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('created_by', 'bigint')
      .addColumn('created_at', 'bigint', time)
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('link_shares_token_hash_key').on('link_shares').column('token_hash').unique().execute();
    await db.schema.createIndex('link_shares_active_key').on('link_shares').column('link_id').unique()
      .where(sql.ref('revoked_at'), 'is', null).execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('link_shares').execute();
  },
});
