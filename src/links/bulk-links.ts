import { LinkforgeError } from '../core/errors.js';
import type { Link } from '../core/link.js';
import type { Principal } from '../core/principal.js';
import { changeRefused, mayChange, requireMembership, type LinkAccess, type OwnedLinkDeps } from './link-access.js';
import { matchFilter, type LinkMatch } from './list-links.js';
import { bulkTagLinks } from './tags/bulk-tag-links.js';

/** The most links one bulk request may act on: a bound on one statement's size and on one request's work. */
export const MAX_BULK_LINKS = 1000;

/** Links named one by one (a selection), or every link a list's filters match ("all matching"). */
export type BulkSelection = { readonly ids: readonly number[] } | { readonly matching: LinkMatch };

export type BulkAction = 'delete' | 'restore' | 'move' | 'tag' | 'untag';

export interface BulkRequest {
  readonly selection: BulkSelection;
  readonly action: BulkAction;
  /** Where `move` takes the links; a workspace the caller belongs to. */
  readonly targetWorkspaceId?: number;
  /** What `tag` adds and `untag` takes off (ADR 0030). */
  readonly tags?: readonly string[];
}

export interface BulkResult {
  /** Links the selection named. */
  readonly matched: number;
  /** The ids of those the action changed, ascending (a deleted link deleted again is not counted). */
  readonly changedIds: number[];
}

/**
 * The links a bulk request names, each judged by the rule a single request meets: a link outside
 * the caller's workspaces makes the whole request a 404, one the caller may only read makes a
 * change a 403 saying why. Either way nothing is changed: all or none.
 */
export async function selectBulkLinks(deps: OwnedLinkDeps, principal: Principal, selection: BulkSelection, access: LinkAccess): Promise<Link[]> {
  const links = 'ids' in selection ? await linksByIds(deps, principal, selection.ids) : await linksMatching(deps, principal, selection.matching);
  if (access === 'read') return links;
  const roles = new Map<number, Awaited<ReturnType<OwnedLinkDeps['workspaces']['roleIn']>>>();
  for (const id of new Set(links.map((link) => link.workspaceId!))) roles.set(id, await deps.workspaces.roleIn(principal, id));
  const refused = links.filter((link) => {
    const role = roles.get(link.workspaceId!);
    return role === undefined || !mayChange(role, link, principal);
  });
  if (refused.length > 0) throw changeRefused(access, { refused: refused.length, of: links.length });
  return links;
}

async function linksByIds(deps: OwnedLinkDeps, principal: Principal, ids: readonly number[]): Promise<Link[]> {
  const unique = [...new Set(ids)];
  if (unique.length > MAX_BULK_LINKS) throw new LinkforgeError('bulk_too_many');
  const filter = await matchFilter(deps, principal, {});
  const links = await deps.store.listLinks({ ...filter, linkIds: unique, limit: unique.length });
  const missing = unique.length - links.length;
  if (missing > 0) throw new LinkforgeError('link_not_found', `${missing} of the ${unique.length} links named do not exist in your workspaces; nothing was changed.`);
  return links;
}

async function linksMatching(deps: OwnedLinkDeps, principal: Principal, match: LinkMatch): Promise<Link[]> {
  const filter = await matchFilter(deps, principal, match);
  const links = await deps.store.listLinks({ ...filter, limit: MAX_BULK_LINKS + 1 });
  if (links.length > MAX_BULK_LINKS) throw new LinkforgeError('bulk_too_many', `More than ${MAX_BULK_LINKS} links match; narrow the filter. Nothing was changed.`);
  return links;
}

/** Delete, restore or move every selected link, in one statement each way. */
export async function bulkChangeLinks(deps: OwnedLinkDeps, principal: Principal, request: BulkRequest): Promise<BulkResult> {
  if (request.action === 'move' && request.targetWorkspaceId === undefined) {
    throw new LinkforgeError('validation_failed', 'Moving links needs the workspace to move them to: `workspaceId`.');
  }
  if (request.action === 'move') await requireMembership(deps, principal, request.targetWorkspaceId!);
  const links = await selectBulkLinks(deps, principal, request.selection, accessOf(request.action));
  const ids = links.map((link) => link.id);
  const now = deps.clock.now();
  if (request.action === 'move') return { matched: links.length, changedIds: await moveLinks(deps, ids, request.targetWorkspaceId!, links, now) };
  if (request.action === 'tag' || request.action === 'untag') return { matched: links.length, changedIds: await bulkTagLinks(deps, links, request.action, request.tags) };
  const changed = request.action === 'delete' ? await deps.store.markLinksDeleted(ids, now) : await deps.store.restoreDeletedLinks(ids, now);
  for (const link of changed) await deps.cache.invalidate(link.domain, link.code);
  return { matched: links.length, changedIds: changed.map((link) => link.id).sort((a, b) => a - b) };
}

function accessOf(action: BulkAction): LinkAccess {
  return action === 'tag' || action === 'untag' ? 'edit' : action;
}

async function moveLinks(deps: OwnedLinkDeps, ids: number[], workspaceId: number, links: readonly Link[], now: number): Promise<number[]> {
  const result = await deps.store.moveLinks(ids, workspaceId, now);
  if (!result.ok) throw new LinkforgeError('url_already_shortened', 'The workspace already has a link for one of these URLs; nothing was moved.');
  await deps.tags.carryLinkTags(ids, workspaceId, now);
  return links.filter((link) => link.workspaceId !== workspaceId).map((link) => link.id);
}
