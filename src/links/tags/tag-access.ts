import { LinkforgeError } from '../../core/errors.js';
import type { Principal, WorkspaceRole } from '../../core/principal.js';
import type { Tag } from '../../core/tag-ports.js';
import type { OwnedLinkDeps } from '../link-access.js';

const ANY_MEMBER: readonly WorkspaceRole[] = ['owner', 'admin', 'member'];
/** Renaming, recolouring or deleting a tag changes colleagues' links too: owners and admins only (ADR 0030). */
const MANAGERS: readonly WorkspaceRole[] = ['owner', 'admin'];

export type TagAccess = 'use' | 'manage';

/** Members use (list, create) a workspace's tags; non-members get the workspace's 404. */
export async function requireTagAccess(deps: OwnedLinkDeps, principal: Principal, workspaceId: number, access: TagAccess): Promise<void> {
  await deps.workspaces.requireRole(principal, workspaceId, access === 'use' ? ANY_MEMBER : MANAGERS);
}

export async function findTagOrThrow(deps: OwnedLinkDeps, workspaceId: number, tagId: number): Promise<Tag> {
  const tag = await deps.tags.findTag(workspaceId, tagId);
  if (tag === undefined) throw new LinkforgeError('tag_not_found');
  return tag;
}
