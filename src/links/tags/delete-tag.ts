import { LinkforgeError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import type { OwnedLinkDeps } from '../link-access.js';
import { requireTagAccess } from './tag-access.js';

/** Deletes a tag and takes it off every link; the links themselves stay. */
export async function deleteTag(deps: OwnedLinkDeps, principal: Principal, workspaceId: number, tagId: number): Promise<void> {
  await requireTagAccess(deps, principal, workspaceId, 'manage');
  if (!await deps.tags.deleteTag(workspaceId, tagId)) throw new LinkforgeError('tag_not_found');
}
