import type { Migration } from 'kysely';
import { DEFAULT_DOMAIN } from '../../core/link.js';
import type { MigrationDb } from './schema-builders.js';

/**
 * Links on the default short domain were stored under the host of BASE_URL, so a new PORT or
 * BASE_URL orphaned all of them; they move to the fixed DEFAULT_DOMAIN key (core/link.ts).
 * There are no custom domains yet, so every row is on the default domain. A code stored under two
 * old hosts (PORT changed before this version) can have one row under the key: the newest takes
 * it, the older stays under its old host, as unreachable as it already was.
 */
export const defaultDomainKey: Migration = {
  async up(db: MigrationDb) {
    await db.updateTable('links as l').set({ domain: DEFAULT_DOMAIN })
      .where('l.domain', '<>', DEFAULT_DOMAIN)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('links as newer').select('newer.id')
        .whereRef('newer.code', '=', 'l.code').whereRef('newer.id', '>', 'l.id'))))
      .execute();
    await db.updateTable('links_archive').set({ domain: DEFAULT_DOMAIN }).execute();
  },
};
