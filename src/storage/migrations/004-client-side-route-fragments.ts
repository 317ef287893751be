import type { Migration } from 'kysely';
import { canonicalize } from '../../core/canonical-url.js';
import type { MigrationDb } from './schema-builders.js';

/**
 * The canonical form now keeps a client-side route fragment (`#/settings`, `#!/page`; ADR 0008),
 * which it used to drop. Rows created before kept the fragment in original_url only, so
 * re-creating such a URL would miss them and mint a second link. Their normalized_url is recomputed
 * with the current rules; code is never touched, so every short link already handed out keeps
 * working and keeps its code. Running it twice changes nothing.
 */
export const clientSideRouteFragments: Migration = {
  async up(db: MigrationDb) {
    // Kysely runs PostgreSQL migrations inside a transaction already, SQLite ones outside any.
    await (db.isTransaction ? recomputeRouteFragments(db) : db.transaction().execute(recomputeRouteFragments));
  },
};

async function recomputeRouteFragments(trx: MigrationDb): Promise<void> {
  // LIKE only narrows the scan; canonicalize decides (a `#/` later in a fragment is no route).
  const rows: Array<{ id: number; workspace_id: number | null; original_url: string; normalized_url: string }> = await trx
    .selectFrom('links')
    .select(['id', 'workspace_id', 'original_url', 'normalized_url'])
    .where((eb) => eb.or([eb('original_url', 'like', '%#/%'), eb('original_url', 'like', '%#!%')]))
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const normalizedUrl = canonicalFormOf(row.original_url);
    if (normalizedUrl === undefined || normalizedUrl === row.normalized_url) continue;
    // The old form of these rows is the new form minus its fragment, and a workspace holds one
    // row per old form, so two rows can only meet here if one was written by other rules (an
    // import, an older canonicalization, a hand edit). Merging them would drop a code somebody
    // may have shared, and the unique index forbids two equal forms: the row that already holds
    // the new form keeps it, and this one keeps its old normalized_url (it still redirects; only
    // re-creating its URL answers the other row). Anonymous rows (null workspace) never collide.
    if (row.workspace_id !== null) {
      const holder = await trx.selectFrom('links').select('id')
        .where('workspace_id', '=', row.workspace_id).where('normalized_url', '=', normalizedUrl)
        .executeTakeFirst();
      if (holder !== undefined) continue;
    }
    await trx.updateTable('links').set({ normalized_url: normalizedUrl }).where('id', '=', row.id).execute();
  }
}

function canonicalFormOf(originalUrl: string): string | undefined {
  try {
    return canonicalize(new URL(originalUrl));
  } catch {
    return undefined; // not written by this app's validation: left as it is
  }
}
