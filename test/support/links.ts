import type { Link, NewLink } from '../../src/core/link.js';
import type { Composition as AppDeps } from '../../src/deps.js';
import { insertedLink } from './contract-fixtures.js';

/** Stores a link straight through the store, for states the public API cannot create. */
export async function insertLink(deps: AppDeps, overrides: Partial<NewLink> = {}): Promise<Link> {
  return insertedLink(deps.store, { createdAt: deps.clock.now(), ...overrides });
}

export async function setLinkColumns(deps: AppDeps, id: number, values: { status?: 'ACTIVE' | 'EXPIRED' | 'DELETED'; deleted_at?: number | null; expires_at?: number | null }): Promise<void> {
  await deps.database.db.updateTable('links').set(values).where('id', '=', id).execute();
}

export async function countLinks(deps: AppDeps): Promise<number> {
  const row = await deps.database.db.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
