import type { Kysely, Selectable } from 'kysely';
import type { NewTag, Tag, TagChanges, TagStore, TagWithCount, TagWriteResult } from '../core/tag-ports.js';
import type { Database, TagRow } from './schema.js';
import { guarded } from './store-errors.js';

function tagRowToTag(row: Selectable<TagRow>): Tag {
  return { id: Number(row.id), workspaceId: Number(row.workspace_id), name: row.name, colour: row.colour, createdAt: Number(row.created_at) };
}

/** A write refused by the one-name-per-workspace index (migration 019). */
function isNameConflict(error: unknown): boolean {
  const err = error as { code?: string; message?: string; constraint?: string };
  if (err.code === '23505') return err.constraint === 'tags_workspace_name_key';
  return err.code === 'SQLITE_CONSTRAINT_UNIQUE' && (err.message ?? '').includes('tags.workspace_id, tags.name_key');
}

/** Tags and the link ↔ tag join for both SQLite and PostgreSQL (ADR 0030). */
export class KyselyTagStore implements TagStore {
  constructor(private readonly db: Kysely<Database>) {}

  listTags(workspaceId: number): Promise<TagWithCount[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('tags').selectAll('tags')
        .select((eb) => eb.selectFrom('link_tags').select((c) => c.fn.countAll().as('n')).whereRef('link_tags.tag_id', '=', 'tags.id').as('link_count'))
        .where('workspace_id', '=', workspaceId).orderBy('name_key').orderBy('id').execute();
      return rows.map(({ link_count: count, ...row }) => ({ ...tagRowToTag(row), linkCount: Number(count ?? 0) }));
    });
  }

  findTag(workspaceId: number, tagId: number): Promise<Tag | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('tags').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', tagId).executeTakeFirst();
      return row && tagRowToTag(row);
    });
  }

  insertTag(tag: NewTag): Promise<TagWriteResult> {
    return this.nameChecked(async () => {
      const row = await this.db.insertInto('tags').values(newTagRow(tag)).returningAll().executeTakeFirstOrThrow();
      return tagRowToTag(row);
    }) as Promise<TagWriteResult>;
  }

  updateTag(workspaceId: number, tagId: number, changes: TagChanges): Promise<TagWriteResult | undefined> {
    return this.nameChecked(async () => {
      const row = await this.db.updateTable('tags')
        .set({ name: changes.name, name_key: changes.nameKey, colour: changes.colour })
        .where('workspace_id', '=', workspaceId).where('id', '=', tagId)
        .returningAll().executeTakeFirst();
      return row && tagRowToTag(row);
    });
  }

  deleteTag(workspaceId: number, tagId: number): Promise<boolean> {
    return guarded(async () => {
      const result = await this.db.deleteFrom('tags').where('workspace_id', '=', workspaceId).where('id', '=', tagId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  ensureTags(workspaceId: number, names: readonly { name: string; nameKey: string }[], colour: string, now: number): Promise<Tag[]> {
    if (names.length === 0) return Promise.resolve([]);
    return guarded(async () => {
      // Whoever inserts a name first keeps its spelling; a concurrent create of the same name is a no-op here.
      await this.db.insertInto('tags')
        .values(names.map(({ name, nameKey }) => newTagRow({ workspaceId, name, nameKey, colour, createdAt: now })))
        .onConflict((oc) => oc.doNothing()).execute();
      const rows = await this.db.selectFrom('tags').selectAll()
        .where('workspace_id', '=', workspaceId).where('name_key', 'in', names.map((n) => n.nameKey)).execute();
      return rows.map(tagRowToTag);
    });
  }

  setLinkTags(linkId: number, tagIds: readonly number[]): Promise<void> {
    return guarded(() => this.db.transaction().execute(async (trx) => {
      let stale = trx.deleteFrom('link_tags').where('link_id', '=', linkId);
      if (tagIds.length > 0) stale = stale.where('tag_id', 'not in', tagIds);
      await stale.execute();
      if (tagIds.length > 0) {
        await trx.insertInto('link_tags').values(tagIds.map((tagId) => ({ link_id: linkId, tag_id: tagId })))
          .onConflict((oc) => oc.doNothing()).execute();
      }
    }));
  }

  addLinkTags(linkIds: readonly number[], tagIds: readonly number[]): Promise<void> {
    if (linkIds.length === 0 || tagIds.length === 0) return Promise.resolve();
    const rows = linkIds.flatMap((linkId) => tagIds.map((tagId) => ({ link_id: linkId, tag_id: tagId })));
    return guarded(async () => {
      await this.db.insertInto('link_tags').values(rows).onConflict((oc) => oc.doNothing()).execute();
    });
  }

  removeLinkTags(linkIds: readonly number[], tagIds: readonly number[]): Promise<void> {
    if (linkIds.length === 0 || tagIds.length === 0) return Promise.resolve();
    return guarded(async () => {
      await this.db.deleteFrom('link_tags').where('link_id', 'in', linkIds).where('tag_id', 'in', tagIds).execute();
    });
  }

  tagsOfLinks(linkIds: readonly number[]): Promise<Map<number, Tag[]>> {
    if (linkIds.length === 0) return Promise.resolve(new Map());
    return guarded(async () => {
      const rows = await this.db.selectFrom('link_tags').innerJoin('tags', 'tags.id', 'link_tags.tag_id')
        .selectAll('tags').select('link_tags.link_id')
        .where('link_tags.link_id', 'in', linkIds).orderBy('tags.name_key').execute();
      const tags = new Map<number, Tag[]>();
      for (const { link_id: linkId, ...row } of rows) {
        const list = tags.get(Number(linkId)) ?? [];
        list.push(tagRowToTag(row));
        tags.set(Number(linkId), list);
      }
      return tags;
    });
  }

  carryLinkTags(linkIds: readonly number[], workspaceId: number, now: number): Promise<void> {
    if (linkIds.length === 0) return Promise.resolve();
    return guarded(() => this.db.transaction().execute(async (trx) => {
      const foreign = await trx.selectFrom('link_tags').innerJoin('tags', 'tags.id', 'link_tags.tag_id')
        .select(['link_tags.link_id', 'link_tags.tag_id', 'tags.name', 'tags.name_key', 'tags.colour'])
        .where('link_tags.link_id', 'in', linkIds).where('tags.workspace_id', '<>', workspaceId).execute();
      if (foreign.length === 0) return;
      await trx.insertInto('tags')
        .values(foreign.map((row) => newTagRow({ workspaceId, name: row.name, nameKey: row.name_key, colour: row.colour, createdAt: now })))
        .onConflict((oc) => oc.doNothing()).execute();
      const targets = await trx.selectFrom('tags').select(['id', 'name_key'])
        .where('workspace_id', '=', workspaceId).where('name_key', 'in', foreign.map((row) => row.name_key)).execute();
      const idOfKey = new Map(targets.map((row) => [row.name_key, Number(row.id)]));
      await trx.insertInto('link_tags')
        .values(foreign.map((row) => ({ link_id: Number(row.link_id), tag_id: idOfKey.get(row.name_key)! })))
        .onConflict((oc) => oc.doNothing()).execute();
      await trx.deleteFrom('link_tags').where('link_id', 'in', linkIds)
        .where('tag_id', 'in', (eb) => eb.selectFrom('tags').select('id').where('workspace_id', '<>', workspaceId)).execute();
    }));
  }

  /** Runs a write of a tag's name, answering a name another tag holds as `{ ok: false }`. */
  private nameChecked(write: () => Promise<Tag | undefined>): Promise<TagWriteResult | undefined> {
    return guarded(async () => {
      try {
        const tag = await write();
        return tag && { ok: true, tag };
      } catch (error) {
        if (isNameConflict(error)) return { ok: false };
        throw error;
      }
    });
  }
}

function newTagRow(tag: NewTag) {
  return { workspace_id: tag.workspaceId, name: tag.name, name_key: tag.nameKey, colour: tag.colour, created_at: tag.createdAt };
}
