import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { time, withId, type MigrationDb } from './schema-builders.js';

/**
 * Tags on links (ADR 0030): a workspace's tags, and which links carry which. `name_key` is the
 * name as compared (core/tag-rules.ts folds it in JavaScript), so that uniqueness ignores case the
 * same way on both databases: SQLite's lower() folds ASCII only, PostgreSQL's follows its locale.
 * Deleting a link (the reaper's purge) or a tag deletes its join rows with it.
 */
export const linkTags = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    await withId(db.schema.createTable('tags'), dialect)
      .addColumn('workspace_id', 'bigint', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('colour', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', time)
      .execute();
    await db.schema.createIndex('tags_workspace_name_key').on('tags').columns(['workspace_id', 'name_key']).unique().execute();
    const joinTable = db.schema.createTable('link_tags')
      .addColumn('link_id', 'bigint', (c) => c.notNull().references('links.id').onDelete('cascade'))
      .addColumn('tag_id', 'bigint', (c) => c.notNull().references('tags.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('link_tags_pkey', ['link_id', 'tag_id']);
    await (dialect === 'sqlite' ? joinTable.modifyEnd(sql`without rowid`) : joinTable).execute();
    // The filter and the counts go from a tag to its links; the primary key serves link → tags.
    await db.schema.createIndex('link_tags_tag_idx').on('link_tags').columns(['tag_id', 'link_id']).execute();
  },
  async down(db: MigrationDb) {
    await db.schema.dropTable('link_tags').ifExists().execute();
    await db.schema.dropTable('tags').ifExists().execute();
  },
});
