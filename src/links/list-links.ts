import { LinkforgeError } from '../core/errors.js';
import type { Link, LinkStatus } from '../core/link.js';
import type { Principal } from '../core/principal.js';
import { requireMembership, type OwnedLinkDeps } from './link-access.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ListLinksQuery {
  /** One workspace (v1); absent: every workspace the caller belongs to (app API). */
  readonly workspaceId?: number;
  readonly status?: LinkStatus;
  readonly search?: string;
  readonly cursor?: string;
  readonly limit?: number;
}

export interface LinkPage {
  readonly items: Link[];
  readonly nextCursor: string | null;
}

/**
 * "The caller's links" are the links of every workspace the caller belongs to, newest first,
 * whoever created them: the dashboard shows shared workspaces too. The cursor is the last id
 * seen, opaque to clients, so pages stay stable while links are added.
 */
export async function listLinks(deps: OwnedLinkDeps, principal: Principal, query: ListLinksQuery): Promise<LinkPage> {
  const workspaceIds = await workspacesToList(deps, principal, query.workspaceId);
  const limit = Math.min(Math.max(query.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  const rows = await deps.store.listLinks({
    workspaceIds,
    status: query.status,
    search: query.search?.trim() || undefined,
    beforeId: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: limit + 1,
    now: deps.clock.now(),
  });
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null };
}

async function workspacesToList(deps: OwnedLinkDeps, principal: Principal, workspaceId: number | undefined): Promise<readonly number[]> {
  if (workspaceId === undefined) return deps.workspaces.workspaceIdsOf(principal);
  await requireMembership(deps, principal, workspaceId);
  return [workspaceId];
}

export function encodeCursor(id: number): string {
  return Buffer.from(String(id), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = Number(text);
  if (!/^[1-9]\d{0,15}$/.test(text) || !Number.isSafeInteger(id)) throw new LinkforgeError('cursor_invalid');
  return id;
}
