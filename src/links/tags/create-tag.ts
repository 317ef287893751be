import { LinkforgeError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { DEFAULT_TAG_COLOUR, parseTagColour, parseTagName, tagNameKey } from '../../core/tag-rules.js';
import type { Tag } from '../../core/tag-ports.js';
import type { OwnedLinkDeps } from '../link-access.js';
import { requireTagAccess } from './tag-access.js';

export interface NewTagRequest {
  readonly name: string;
  readonly colour?: string;
}

/** A new tag; a name the workspace has already (whatever its case) is a 409 naming it. */
export async function createTag(deps: OwnedLinkDeps, principal: Principal, workspaceId: number, request: NewTagRequest): Promise<Tag> {
  await requireTagAccess(deps, principal, workspaceId, 'use');
  const name = parseTagName(request.name, 'name');
  const colour = request.colour === undefined ? DEFAULT_TAG_COLOUR : parseTagColour(request.colour, 'colour');
  const result = await deps.tags.insertTag({ workspaceId, name, nameKey: tagNameKey(name), colour, createdAt: deps.clock.now() });
  if (!result.ok) throw tagNameTaken(name);
  return result.tag;
}

export function tagNameTaken(name: string): LinkforgeError {
  return new LinkforgeError('tag_name_taken', `The workspace already has a tag named "${name}".`, { field: 'name' });
}
