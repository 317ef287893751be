import { LinkforgeError } from '../../core/errors.js';
import type { Link } from '../../core/link.js';
import { tagNameKey } from '../../core/tag-rules.js';
import type { OwnedLinkDeps } from '../link-access.js';
import { requestedTagNames, tagsNamed } from './link-tags.js';

/**
 * Adds tags to (or takes them off) links the caller may edit, workspace by workspace: a tag is
 * its workspace's, so selected links of two workspaces get two tags of one name. Adding makes
 * missing tags; taking off a tag a workspace lacks changes nothing there. Answers the link ids.
 */
export async function bulkTagLinks(deps: OwnedLinkDeps, links: readonly Link[], action: 'tag' | 'untag', names: readonly string[] | undefined): Promise<number[]> {
  const parsed = requestedTagNames(names, 'tags');
  if (!parsed?.length) throw new LinkforgeError('validation_failed', `Tagging links needs the tags to ${action === 'tag' ? 'add' : 'remove'}: \`tags\`.`, { field: 'tags' });
  const byWorkspace = new Map<number, number[]>();
  for (const link of links) byWorkspace.set(link.workspaceId!, [...(byWorkspace.get(link.workspaceId!) ?? []), link.id]);
  for (const [workspaceId, linkIds] of byWorkspace) {
    if (action === 'tag') {
      const tags = await tagsNamed(deps, workspaceId, parsed);
      await deps.tags.addLinkTags(linkIds, tags.map((tag) => tag.id));
    } else {
      const keys = new Set(parsed.map(tagNameKey));
      const tags = (await deps.tags.listTags(workspaceId)).filter((tag) => keys.has(tagNameKey(tag.name)));
      await deps.tags.removeLinkTags(linkIds, tags.map((tag) => tag.id));
    }
  }
  return links.map((link) => link.id).sort((a, b) => a - b);
}
