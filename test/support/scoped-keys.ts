import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Composition as AppDeps } from '../../src/deps.js';
import { bearer } from './users.js';

/** POST …/api-keys with a body of the caller's choice; the caller asserts the status. */
export function postApiKey(app: FastifyInstance, token: string, workspaceId: number, payload: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/api-keys`, headers: bearer(token), payload });
}

/** A key with exactly these scopes (and expiry), made by the token's user; returns its secret. */
export async function createScopedKey(app: FastifyInstance, token: string, workspaceId: number, scopes: readonly string[], expiresAt?: string): Promise<string> {
  const response = await postApiKey(app, token, workspaceId, { name: `key ${scopes.join(' ')}`, scopes, ...(expiresAt ? { expires_at: expiresAt } : {}) });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { key: string }).key;
}

const TABLES = ['links', 'tags', 'link_tags', 'workspaces', 'workspace_members', 'api_keys', 'link_shares', 'webhook_endpoints', 'webhook_deliveries', 'domains'] as const;

/**
 * Every row a scoped key could change, sorted: two equal snapshots prove a request changed nothing.
 * A key's `last_used_at` is left out: authenticating may record it (at most once a minute).
 */
export async function accountAndLinkRows(deps: AppDeps): Promise<Record<string, string[]>> {
  const entries = await Promise.all(TABLES.map(async (table) => {
    const rows = await deps.database.db.selectFrom(table).selectAll().execute();
    return [table, rows.map((row) => JSON.stringify({ ...row, last_used_at: undefined })).sort()] as const;
  }));
  return Object.fromEntries(entries);
}
