import type { Link } from '../../core/link.js';
import { DEFAULT_TAG_COLOUR, parseTagNames, tagNameKey } from '../../core/tag-rules.js';
import type { Tag } from '../../core/tag-ports.js';
import type { OwnedLinkDeps } from '../link-access.js';

/** A link's tags as a request gives them: names checked (400 naming `field`) before anything is written. */
export function requestedTagNames(values: readonly string[] | undefined, field: string): string[] | undefined {
  return values === undefined ? undefined : parseTagNames(values, field);
}

/** The workspace's tags of these names, made (grey) where missing: the usual create-as-you-type (ADR 0030). */
export async function tagsNamed(deps: OwnedLinkDeps, workspaceId: number, names: readonly string[]): Promise<Tag[]> {
  return deps.tags.ensureTags(workspaceId, names.map((name) => ({ name, nameKey: tagNameKey(name) })), DEFAULT_TAG_COLOUR, deps.clock.now());
}

/** Makes `names` the link's whole set of tags. Tags are not on the redirect path: no cache to invalidate. */
export async function setLinkTags(deps: OwnedLinkDeps, link: Link, names: readonly string[]): Promise<void> {
  const tags = await tagsNamed(deps, link.workspaceId!, names);
  await deps.tags.setLinkTags(link.id, tags.map((tag) => tag.id));
}

/** Each link's tag names in name order (an empty list for a link without tags). */
export async function tagNamesOfLinks(deps: OwnedLinkDeps, links: readonly Link[]): Promise<Map<number, string[]>> {
  const tags = await deps.tags.tagsOfLinks(links.map((link) => link.id));
  return new Map(links.map((link) => [link.id, (tags.get(link.id) ?? []).map((tag) => tag.name)]));
}
