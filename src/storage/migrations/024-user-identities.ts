import type { Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { time, withId, type MigrationDb } from './schema-builders.js';

/**
 * Which account an OpenID Connect identity signs in to (ADR 0034): one row per (issuer, subject),
 * so a later change of email at the provider still finds the account. An account holds at most one
 * subject per issuer, so another person at the provider who is later given the same email cannot
 * take it over. The rows go with their account.
 */
export const userIdentities = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await withId(db.schema.createTable('user_identities'), dialect)
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', time)
      .execute();
    await db.schema.createIndex('user_identities_subject_key').on('user_identities').columns(['issuer', 'subject']).unique().execute();
    await db.schema.createIndex('user_identities_user_key').on('user_identities').columns(['user_id', 'issuer']).unique().execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('user_identities').execute();
  },
});
