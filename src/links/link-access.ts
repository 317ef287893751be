import type { WorkspaceAccess } from '../accounts/workspace-access.js';
import type { UrlPolicy } from '../core/canonical-url.js';
import { LinkforgeError } from '../core/errors.js';
import type { Link } from '../core/link.js';
import type { Clock, LinkCacheInvalidator, LinkStore } from '../core/ports.js';
import type { Principal, WorkspaceRole } from '../core/principal.js';
import type { TagStore } from '../core/tag-ports.js';
import type { DomainStore } from '../core/domain-ports.js';
import type { LinkPasswordHashing } from './link-password.js';
import { linkDomainKey } from './domains/link-domain.js';

/** What the owned-link use cases need; built once in deps.ts. */
export interface OwnedLinkDeps {
  readonly store: LinkStore;
  /** Tags and which links carry them (ADR 0030). */
  readonly tags: TagStore;
  readonly cache: LinkCacheInvalidator;
  readonly clock: Clock;
  readonly urlPolicy: UrlPolicy;
  readonly domain: string;
  /** Custom domains a link may be made on (ADR 0036). */
  readonly domains: Pick<DomainStore, 'findDomainByHostname'>;
  readonly codeLength: number;
  readonly workspaces: Pick<WorkspaceAccess, 'roleIn' | 'requireRole' | 'personalWorkspaceId' | 'workspaceIdsOf'>;
  /** Hashes a link's password (bcrypt, shared with the accounts' hasher). */
  readonly passwords: LinkPasswordHashing;
}

/** The app API names a link by id; the v1 API by its code inside a workspace. */
export type LinkSelector =
  | { readonly id: number }
  | { readonly workspaceId: number; readonly code: string; readonly domain?: string };

/** Reading, or one of the changes; a refused change names itself in its reason. */
export type LinkAccess = 'read' | 'edit' | 'delete' | 'restore' | 'move';

/** What the caller may do with one link, as a list shows it. */
export interface LinkPermissions {
  readonly edit: boolean;
  readonly delete: boolean;
}

/** The one rule for changes: a workspace's owner or admin (an API key acts as admin), or the member who created the link. */
export function mayChange(role: WorkspaceRole, link: Pick<Link, 'ownerId'>, principal: Principal): boolean {
  return role !== 'member' || link.ownerId === principal.userId;
}

export function permissionsOf(role: WorkspaceRole, link: Pick<Link, 'ownerId'>, principal: Principal): LinkPermissions {
  const allowed = mayChange(role, link, principal);
  return { edit: allowed, delete: allowed };
}

/**
 * Why a member may not change a colleague's link: they can see it, so "not found" would be a lie.
 * A bulk request says how many of its links are someone else's.
 */
export function changeRefused(access: Exclude<LinkAccess, 'read'>, bulk?: { readonly refused: number; readonly of: number }): LinkforgeError {
  if (bulk === undefined) return new LinkforgeError('link_change_not_allowed', `Only the link's creator or a workspace admin can ${access} it.`);
  return new LinkforgeError('link_change_not_allowed',
    `${bulk.refused} of the ${bulk.of} links were created by someone else: only their creator or a workspace admin can ${access} them. Nothing was changed.`);
}

const ANY_MEMBER: readonly WorkspaceRole[] = ['owner', 'admin', 'member'];

/** Non-members get the workspace's 404 (never 403). */
export async function requireMembership(deps: OwnedLinkDeps, principal: Principal, workspaceId: number): Promise<WorkspaceRole> {
  return deps.workspaces.requireRole(principal, workspaceId, ANY_MEMBER);
}

/**
 * Every member of a link's workspace may read it. Changing it (edit, delete, restore) takes the
 * workspace's owner or admin role, or being the member who created the link: a plain member
 * manages their own links without touching colleagues'. An API key acts as admin in its
 * workspace. A member refused a change is told why (`link_change_not_allowed`): they can read the
 * link anyway. Everyone else, like an id that does not exist, gets the same `link_not_found`.
 */
export async function findAccessibleLink(
  deps: OwnedLinkDeps, principal: Principal, selector: LinkSelector, access: LinkAccess,
): Promise<Link> {
  const link = 'id' in selector
    ? await deps.store.findLinkById(selector.id)
    : await findInWorkspace(deps, principal, selector);
  if (link === undefined || link.workspaceId === null) throw new LinkforgeError('link_not_found');
  const role = await deps.workspaces.roleIn(principal, link.workspaceId);
  if (role === undefined) throw new LinkforgeError('link_not_found');
  if (access !== 'read' && !mayChange(role, link, principal)) throw changeRefused(access);
  return link;
}

async function findInWorkspace(deps: OwnedLinkDeps, principal: Principal, selector: { workspaceId: number; code: string; domain?: string }) {
  await requireMembership(deps, principal, selector.workspaceId);
  const link = await deps.store.findLinkByCode(await linkDomainKey(deps, selector.workspaceId, selector.domain), selector.code);
  return link?.workspaceId === selector.workspaceId ? link : undefined;
}

/** Creating a URL the workspace already holds answers that link, brought back if it was deleted. */
export async function reuseExistingLink(deps: OwnedLinkDeps, link: Link): Promise<Link> {
  if (link.status !== 'DELETED') return link;
  const restored = await deps.store.restoreDeletedLink(link.id, deps.clock.now());
  await deps.cache.invalidate(link.domain, link.code);
  return restored ?? (await deps.store.findLinkById(link.id)) ?? link;
}
