import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { time, withId, type MigrationDb } from './schema-builders.js';

/**
 * Custom domains (ADR 0036): a workspace's own short hostnames. The hostname is unique across the
 * instance (stored normalised by core/custom-domain.ts, so the unique index is the whole rule). A
 * domain's links are stored under `links.domain = 'domain-<id>'`, never under the hostname, so no
 * foreign key joins them; deleting a workspace deletes its domains.
 */
export const customDomains = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await withId(db.schema.createTable('domains'), dialect)
      .addColumn('workspace_id', 'bigint', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('hostname', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'verified')`))
      .addColumn('verification_token', 'text', (c) => c.notNull())
      .addColumn('verified_at', 'bigint')
      .addColumn('root_redirect_url', 'text')
      .addColumn('not_found_redirect_url', 'text')
      .addColumn('created_at', 'bigint', time)
      .execute();
    await db.schema.createIndex('domains_hostname_key').on('domains').column('hostname').unique().execute();
    await db.schema.createIndex('domains_workspace_idx').on('domains').columns(['workspace_id', 'id']).execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('domains').ifExists().execute();
  },
});

