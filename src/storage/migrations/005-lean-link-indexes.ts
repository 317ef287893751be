import { sql, type Migration } from 'kysely';
import type { MigrationDb } from './schema-builders.js';

/**
 * Every index is written on every insert: a create wrote eight B-trees. Kept are those a query
 * uses: unique (domain, code) for redirects and claims; (status, expires_at) and
 * (status, deleted_at) for the reaper's mark and purge; unique (workspace_id, normalized_url),
 * now partial, since anonymous links (no workspace) are never deduplicated and
 * their long URLs made it the largest write of an anonymous create. Dropped: expires_at and
 * deleted_at alone (the status pairs serve every query that used them) and (owner_id, id), which
 * no query reads (add it back with a feature that deletes users). The partial index still serves
 * `workspace_id = ?`, which implies `workspace_id is not null`.
 */
export const leanLinkIndexes: Migration = {
  async up(db: MigrationDb) {
    for (const name of ['links_expires_at_idx', 'links_deleted_at_idx', 'links_owner_idx', 'links_workspace_url_key']) {
      await db.schema.dropIndex(name).execute();
    }
    await db.schema.createIndex('links_workspace_url_key').on('links').columns(['workspace_id', 'normalized_url']).unique()
      .where(sql.ref('workspace_id'), 'is not', null).execute();
  },
};
