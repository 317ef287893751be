import type { Kysely, Transaction } from 'kysely';
import type { ImportableLink, ImportOutcome, ImportTarget, TransferTag } from '../core/link-transfer-ports.js';
import { DEFAULT_TAG_COLOUR, tagNameKey } from '../core/tag-rules.js';
import type { Database } from './schema.js';

/** Each link's tags with their colours, in name order, for an export (ADR 0030); links without tags are absent. */
export async function selectTagsForExport(db: Kysely<Database>, linkIds: readonly number[]): Promise<Map<number, TransferTag[]>> {
  const tags = new Map<number, TransferTag[]>();
  if (linkIds.length === 0) return tags;
  const rows = await db.selectFrom('link_tags').innerJoin('tags', 'tags.id', 'link_tags.tag_id')
    .select(['link_tags.link_id', 'tags.name', 'tags.colour'])
    .where('link_tags.link_id', 'in', linkIds).orderBy('link_tags.link_id').orderBy('tags.name_key').execute();
  for (const row of rows) {
    const id = Number(row.link_id);
    tags.set(id, [...(tags.get(id) ?? []), { name: row.name, colour: row.colour }]);
  }
  return tags;
}

/**
 * The tags of the links an import created, in the import's transaction: the workspace's tags of
 * those names, made with the file's colours where missing (a tag the workspace has keeps its own).
 */
export async function insertImportedTags(trx: Transaction<Database>, target: ImportTarget, links: readonly ImportableLink[], outcomes: readonly ImportOutcome[], now: number): Promise<void> {
  const wanted = new Map<string, TransferTag>();
  const pairs: Array<{ linkId: number; key: string }> = [];
  links.forEach((link, i) => {
    const outcome = outcomes[i];
    if (outcome?.kind !== 'created') return;
    for (const tag of link.tags ?? []) {
      const key = tagNameKey(tag.name);
      if (!wanted.has(key)) wanted.set(key, tag);
      pairs.push({ linkId: outcome.linkId, key });
    }
  });
  if (pairs.length === 0) return;
  const keys = [...wanted.keys()];
  await trx.insertInto('tags').values(keys.map((key) => ({
    workspace_id: target.workspaceId, name: wanted.get(key)!.name, name_key: key, colour: wanted.get(key)!.colour ?? DEFAULT_TAG_COLOUR, created_at: now,
  }))).onConflict((oc) => oc.doNothing()).execute();
  const rows = await trx.selectFrom('tags').select(['id', 'name_key']).where('workspace_id', '=', target.workspaceId).where('name_key', 'in', keys).execute();
  const idOfKey = new Map(rows.map((row) => [row.name_key, Number(row.id)]));
  for (let i = 0; i < pairs.length; i += 500) {
    await trx.insertInto('link_tags').values(pairs.slice(i, i + 500).map(({ linkId, key }) => ({ link_id: linkId, tag_id: idOfKey.get(key)! })))
      .onConflict((oc) => oc.doNothing()).execute();
  }
}
