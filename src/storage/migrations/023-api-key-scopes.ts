import type { Migration } from 'kysely';
import { API_KEY_SCOPES } from '../../core/api-key-scopes.js';
import type { MigrationDb } from './schema-builders.js';

/**
 * Scopes and an optional expiry for API keys (ADR 0032). The column's default gives every key made
 * before it all four scopes, the full power keys had, so existing scripts keep working; new keys
 * always store their scopes explicitly.
 */
export const apiKeyScopes: Migration = {
  async up(db: MigrationDb) {
    await db.schema.alterTable('api_keys').addColumn('scopes', 'text', (c) => c.notNull().defaultTo(API_KEY_SCOPES.join(' '))).execute();
    await db.schema.alterTable('api_keys').addColumn('expires_at', 'bigint').execute();
  },
  async down(db: MigrationDb) {
    await db.schema.alterTable('api_keys').dropColumn('expires_at').execute();
    await db.schema.alterTable('api_keys').dropColumn('scopes').execute();
  },
};
