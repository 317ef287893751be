import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { time, withId, type MigrationDb } from './schema-builders.js';
import { linkEventTriggerSql } from './webhook-link-triggers.js';

/**
 * Signed webhooks (ADR 0035). `webhook_endpoints` are a workspace's receivers, their events a bit
 * set (core/webhook-events.ts). `webhook_deliveries` is the outbox: one row per endpoint and event,
 * written by triggers on `links` in the transaction of the change it reports, so no writer (the
 * API, the cleanup job, a click limit, the CLI, the writer thread's raw SQL) can forget one or
 * report a change that was rolled back. The rows also keep each delivery's state.
 */
export const webhooks = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await withId(db.schema.createTable('webhook_endpoints'), dialect)
      .addColumn('workspace_id', 'bigint', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'integer', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('failing_since', 'bigint')
      .addColumn('created_at', 'bigint', time)
      .addColumn('updated_at', 'bigint', time)
      .execute();
    await db.schema.createIndex('webhook_endpoints_workspace_idx').on('webhook_endpoints').column('workspace_id').execute();
    await withId(db.schema.createTable('webhook_deliveries'), dialect)
      .addColumn('endpoint_id', 'bigint', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('link_id', 'bigint')
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('occurred_at', 'bigint', time)
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', time)
      .addColumn('claimed_until', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'bigint')
      .execute();
    // The claim's scan: pending rows by due time; and the order check: an endpoint's pending rows of one link.
    await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_link_idx').on('webhook_deliveries').columns(['endpoint_id', 'link_id', 'id']).execute();
    for (const statement of linkEventTriggerSql(dialect)) await sql.raw(statement).execute(db);
  },
  async down(db: MigrationDb) {
    if (dialect === 'postgres') {
      await sql`drop trigger if exists webhook_link_events on links`.execute(db);
      await sql`drop function if exists webhook_link_event()`.execute(db);
    } else {
      for (const trigger of ['webhook_link_inserted', 'webhook_link_updated']) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    }
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('webhook_endpoints').execute();
  },
});
