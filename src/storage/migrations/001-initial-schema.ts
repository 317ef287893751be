import type { ColumnDefinitionBuilder, CreateTableBuilder, Migration } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../database.js';
import { time, withId, type MigrationDb } from './schema-builders.js';

/** Users, workspaces, links and their archive, the job tables, visits and the global counters. */
export function initialSchema(dialect: Dialect): Migration {
  return {
    async up(db: MigrationDb) {
      await createAccountTables(db, dialect);
      await createLinkTables(db, dialect);
      await createJobTables(db, dialect);
      await createVisitTables(db, dialect);
    },
  };
}

async function createAccountTables(db: MigrationDb, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('users'), dialect)
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
    .addColumn('created_at', 'bigint', time)
    .execute();
  await db.schema.createIndex('users_email_key').on('users').column('email').unique().execute();

  await withId(db.schema.createTable('workspaces'), dialect)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_personal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', time)
    .execute();

  await db.schema.createTable('workspace_members')
    .addColumn('workspace_id', 'bigint', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', time)
    .addPrimaryKeyConstraint('workspace_members_pkey', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workspace_members_user_idx').on('workspace_members').column('user_id').execute();

  await withId(db.schema.createTable('api_keys'), dialect)
    .addColumn('workspace_id', 'bigint', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', time)
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_secret_hash_key').on('api_keys').column('secret_hash').unique().execute();
}

async function createLinkTables(db: MigrationDb, dialect: Dialect): Promise<void> {
  await linkColumns(withId(db.schema.createTable('links'), dialect), true).execute();
  // Codes resolve to one link per domain; a workspace holds one link per canonical URL.
  // Anonymous links have a null workspace_id, which both databases treat as distinct.
  await db.schema.createIndex('links_domain_code_key').on('links').columns(['domain', 'code']).unique().execute();
  await db.schema.createIndex('links_workspace_url_key').on('links').columns(['workspace_id', 'normalized_url']).unique().execute();
  await db.schema.createIndex('links_expires_at_idx').on('links').column('expires_at').execute();
  await db.schema.createIndex('links_deleted_at_idx').on('links').column('deleted_at').execute();
  await db.schema.createIndex('links_owner_idx').on('links').columns(['owner_id', 'id']).execute();

  await linkColumns(db.schema.createTable('links_archive').addColumn('id', 'bigint', (c) => c.primaryKey()), false)
    .addColumn('archived_at', 'bigint', time)
    .execute();
}

/** A link's columns, shared by `links` and `links_archive` (whose rows outlive their users). */
function linkColumns<T extends string>(table: CreateTableBuilder<T, never>, withForeignKeys: boolean) {
  const reference = (target: string) => (c: ColumnDefinitionBuilder) =>
    withForeignKeys ? c.references(target).onDelete('set null') : c;
  return table
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('original_url', 'text', (c) => c.notNull())
    .addColumn('normalized_url', 'text', (c) => c.notNull())
    .addColumn('link_type', 'text', (c) => c.notNull().check(sql`link_type in ('TEMPORARY', 'PERMANENT')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('ACTIVE', 'EXPIRED', 'DELETED')`))
    .addColumn('workspace_id', 'bigint', reference('workspaces.id'))
    .addColumn('owner_id', 'bigint', reference('users.id'))
    .addColumn('claim_token_hash', 'text')
    .addColumn('created_at', 'bigint', time)
    .addColumn('updated_at', 'bigint', time)
    .addColumn('expires_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .addColumn('redirect_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('avg_redirect_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('destination_status', 'integer')
    .addColumn('last_checked_at', 'bigint');
}

async function createJobTables(db: MigrationDb, dialect: Dialect): Promise<void> {
  await db.schema.createTable('shedlock')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('lock_until', 'bigint', time)
    .addColumn('locked_at', 'bigint', time)
    .addColumn('locked_by', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('cleanup_runs'), dialect)
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', time)
    .addColumn('finished_at', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('marked_expired', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('purged', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('archived', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('batches', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_batch_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_ms', 'bigint')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('cleanup_runs_started_at_idx').on('cleanup_runs').column('started_at').execute();
}

async function createVisitTables(db: MigrationDb, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('visits'), dialect)
    .addColumn('link_id', 'bigint', (c) => c.notNull())
    .addColumn('visited_at', 'bigint', time)
    .addColumn('referrer_host', 'text')
    .addColumn('browser', 'text')
    .addColumn('os', 'text')
    .addColumn('device', 'text')
    .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('visits_link_time_idx').on('visits').columns(['link_id', 'visited_at']).execute();

  await db.schema.createTable('global_stats')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('total_redirects', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('avg_latency_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('global_stats').values({ id: 1, total_redirects: 0, avg_latency_ms: 0 }).execute();
}
