import { DEFAULT_DOMAIN, type Link, type NewLink } from '../../src/core/link.js';
import type { Composition as AppDeps } from '../../src/deps.js';

let counter = 0;

/** Stores a link straight through the store, for states the public API cannot create. */
export async function insertLink(deps: AppDeps, overrides: Partial<NewLink> = {}): Promise<Link> {
  counter += 1;
  const url = overrides.originalUrl ?? `https://example.com/page/${counter}`;
  const result = await deps.store.insertLink({
    domain: DEFAULT_DOMAIN,
    code: `code${counter}x`,
    originalUrl: url,
    normalizedUrl: url,
    linkType: 'PERMANENT',
    workspaceId: null,
    ownerId: null,
    claimTokenHash: null,
    createdAt: deps.clock.now(),
    expiresAt: null,
    ...overrides,
  });
  if (!result.ok) throw new Error(`test link not inserted: ${result.conflict}`);
  return result.link;
}

export async function setLinkColumns(deps: AppDeps, id: number, values: { status?: 'ACTIVE' | 'EXPIRED' | 'DELETED'; deleted_at?: number | null; expires_at?: number | null }): Promise<void> {
  await deps.database.db.updateTable('links').set(values).where('id', '=', id).execute();
}

export async function countLinks(deps: AppDeps): Promise<number> {
  const row = await deps.database.db.selectFrom('links').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
