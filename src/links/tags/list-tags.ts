import type { Principal } from '../../core/principal.js';
import type { TagWithCount } from '../../core/tag-ports.js';
import type { OwnedLinkDeps } from '../link-access.js';
import { requireTagAccess } from './tag-access.js';

/** A workspace's tags in name order, each with how many links carry it. */
export async function listTags(deps: OwnedLinkDeps, principal: Principal, workspaceId: number): Promise<TagWithCount[]> {
  await requireTagAccess(deps, principal, workspaceId, 'use');
  return deps.tags.listTags(workspaceId);
}
