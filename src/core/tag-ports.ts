/** A workspace's label for links (ADR 0030). */
export interface Tag {
  readonly id: number;
  readonly workspaceId: number;
  readonly name: string;
  /** A palette name or `#rrggbb` (core/tag-rules.ts). */
  readonly colour: string;
  readonly createdAt: number;
}

export interface TagWithCount extends Tag {
  /** Links carrying it, whatever their status. */
  readonly linkCount: number;
}

/** What a tag needs to be stored; `nameKey` is `tagNameKey(name)`. */
export interface NewTag {
  readonly workspaceId: number;
  readonly name: string;
  readonly nameKey: string;
  readonly colour: string;
  readonly createdAt: number;
}

export interface TagChanges {
  readonly name?: string;
  readonly nameKey?: string;
  readonly colour?: string;
}

/** A write that may meet another tag of the same name: the conflict is a value, never pre-checked. */
export type TagWriteResult = { readonly ok: true; readonly tag: Tag } | { readonly ok: false };

/** Links filtered by tag: `any` of the names, or `all` of them. */
export type TagMode = 'any' | 'all';

/**
 * Persistence of tags and of which links carry them. Implementations throw StoreUnavailableError
 * when the database cannot be reached. Link ids given here are trusted: the use cases checked them.
 */
export interface TagStore {
  /** In name order (by key), with their link counts. */
  listTags(workspaceId: number): Promise<TagWithCount[]>;
  findTag(workspaceId: number, tagId: number): Promise<Tag | undefined>;
  insertTag(tag: NewTag): Promise<TagWriteResult>;
  /** `undefined` when the workspace has no such tag. */
  updateTag(workspaceId: number, tagId: number, changes: TagChanges): Promise<TagWriteResult | undefined>;
  /** Removes the tag from every link too; false when there was no such tag. */
  deleteTag(workspaceId: number, tagId: number): Promise<boolean>;
  /** The workspace's tags of these names, created (with `colour`) where missing; safe against concurrent creates. */
  ensureTags(workspaceId: number, names: readonly { name: string; nameKey: string }[], colour: string, now: number): Promise<Tag[]>;
  /** Makes `tagIds` the link's whole set of tags. */
  setLinkTags(linkId: number, tagIds: readonly number[]): Promise<void>;
  addLinkTags(linkIds: readonly number[], tagIds: readonly number[]): Promise<void>;
  removeLinkTags(linkIds: readonly number[], tagIds: readonly number[]): Promise<void>;
  /** Each link's tags in name order; links without tags are absent. */
  tagsOfLinks(linkIds: readonly number[]): Promise<Map<number, Tag[]>>;
  /** After links moved to `workspaceId`: their tags become that workspace's tags of the same names. */
  carryLinkTags(linkIds: readonly number[], workspaceId: number, now: number): Promise<void>;
}
