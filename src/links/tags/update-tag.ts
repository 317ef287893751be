import type { Principal } from '../../core/principal.js';
import { parseTagColour, parseTagName, tagNameKey } from '../../core/tag-rules.js';
import type { Tag, TagChanges } from '../../core/tag-ports.js';
import type { OwnedLinkDeps } from '../link-access.js';
import { tagNameTaken } from './create-tag.js';
import { findTagOrThrow, requireTagAccess } from './tag-access.js';

export interface TagUpdate {
  readonly name?: string;
  readonly colour?: string;
}

/** Renames or recolours a tag; every link carrying it shows the change at once (they hold its id). */
export async function updateTag(deps: OwnedLinkDeps, principal: Principal, workspaceId: number, tagId: number, update: TagUpdate): Promise<Tag> {
  await requireTagAccess(deps, principal, workspaceId, 'manage');
  const name = update.name === undefined ? undefined : parseTagName(update.name, 'name');
  const changes: TagChanges = {
    ...(name !== undefined && { name, nameKey: tagNameKey(name) }),
    ...(update.colour !== undefined && { colour: parseTagColour(update.colour, 'colour') }),
  };
  if (changes.name === undefined && changes.colour === undefined) return findTagOrThrow(deps, workspaceId, tagId);
  const result = await deps.tags.updateTag(workspaceId, tagId, changes);
  if (result === undefined) return findTagOrThrow(deps, workspaceId, tagId);
  if (!result.ok) throw tagNameTaken(name!);
  return result.tag;
}
