import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { tagNameKey } from '../../src/core/tag-rules.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME, type TestOwner } from '../support/contract-fixtures.js';

const NOW = LATE_TIME;
const named = (...names: string[]) => names.map((name) => ({ name, nameKey: tagNameKey(name) }));

for (const backend of STORE_BACKENDS) {
  describe(`TagStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const ownedLink = (owner: TestOwner) => insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
    const namesOf = async (linkId: number) => ((await stores.tags.tagsOfLinks([linkId])).get(linkId) ?? []).map((tag) => tag.name);

    test('one name per workspace whatever its case, the same on both databases, non-ASCII letters included', async () => {
      const owner = await createOwner(stores.accounts);
      const first = await stores.tags.insertTag({ workspaceId: owner.workspaceId, name: 'Äpfel', nameKey: tagNameKey('Äpfel'), colour: 'red', createdAt: NOW });
      assert.ok(first.ok);
      assert.deepEqual([first.tag.name, first.tag.colour, first.tag.createdAt], ['Äpfel', 'red', NOW]);
      const again = await stores.tags.insertTag({ workspaceId: owner.workspaceId, name: 'äPFEL', nameKey: tagNameKey('äPFEL'), colour: 'blue', createdAt: NOW });
      assert.deepEqual(again, { ok: false });
      const other = await createOwner(stores.accounts);
      assert.ok((await stores.tags.insertTag({ workspaceId: other.workspaceId, name: 'Äpfel', nameKey: tagNameKey('Äpfel'), colour: 'red', createdAt: NOW })).ok, 'another workspace may have it');
    });

    test('ensureTags makes only the missing ones, keeps existing spellings and colours, and is safe when run at once', async () => {
      const owner = await createOwner(stores.accounts);
      await stores.tags.ensureTags(owner.workspaceId, named('Alpha'), 'teal', NOW);
      const results = await Promise.all([1, 2, 3].map(() => stores.tags.ensureTags(owner.workspaceId, named('alpha', 'beta', 'gamma'), 'gray', NOW)));
      for (const tags of results) assert.deepEqual(tags.map((tag) => [tag.name, tag.colour]).sort(), [['Alpha', 'teal'], ['beta', 'gray'], ['gamma', 'gray']]);
      assert.equal((await stores.tags.listTags(owner.workspaceId)).length, 3);
    });

    test('sets, adds and removes a link\'s tags; lists them in name order with counts; a delete takes a tag off its links', async () => {
      const owner = await createOwner(stores.accounts);
      const [a, b] = [await ownedLink(owner), await ownedLink(owner)];
      const [x, y, z] = (await stores.tags.ensureTags(owner.workspaceId, named('x', 'Y', 'z'), 'gray', NOW)).sort((p, q) => p.name.localeCompare(q.name));
      await stores.tags.setLinkTags(a.id, [z!.id, x!.id]);
      await stores.tags.setLinkTags(a.id, [x!.id, y!.id]);
      assert.deepEqual(await namesOf(a.id), ['x', 'Y']);
      await stores.tags.addLinkTags([a.id, b.id], [z!.id, x!.id]);
      assert.deepEqual([await namesOf(a.id), await namesOf(b.id)], [['x', 'Y', 'z'], ['x', 'z']]);
      assert.deepEqual((await stores.tags.listTags(owner.workspaceId)).map((tag) => [tag.name, tag.linkCount]), [['x', 2], ['Y', 1], ['z', 2]]);
      await stores.tags.removeLinkTags([a.id, b.id], [z!.id]);
      assert.equal(await stores.tags.deleteTag(owner.workspaceId, x!.id), true);
      assert.deepEqual([await namesOf(a.id), await namesOf(b.id)], [['Y'], []]);
      assert.equal(await stores.tags.deleteTag(owner.workspaceId, x!.id), false);
      await stores.tags.setLinkTags(a.id, []);
      assert.deepEqual(await namesOf(a.id), []);
    });

    test('an update renames or recolours within its workspace only, and answers a taken name as a conflict', async () => {
      const owner = await createOwner(stores.accounts);
      const stranger = await createOwner(stores.accounts);
      const [one, two] = await stores.tags.ensureTags(owner.workspaceId, named('one', 'two'), 'gray', NOW);
      const renamed = await stores.tags.updateTag(owner.workspaceId, one!.id, { name: 'Uno', nameKey: tagNameKey('Uno') });
      assert.deepEqual(renamed?.ok && [renamed.tag.name, renamed.tag.colour], ['Uno', 'gray']);
      assert.deepEqual(await stores.tags.updateTag(owner.workspaceId, two!.id, { name: 'UNO', nameKey: tagNameKey('UNO') }), { ok: false });
      assert.equal(await stores.tags.updateTag(stranger.workspaceId, one!.id, { colour: 'red' }), undefined);
      assert.equal(await stores.tags.findTag(stranger.workspaceId, one!.id), undefined);
    });

    test('the list filter matches any or all of the tags, by key; a purged link leaves no join row', async () => {
      const owner = await createOwner(stores.accounts);
      const [a, b, c] = [await ownedLink(owner), await ownedLink(owner), await ownedLink(owner)];
      const tags = await stores.tags.ensureTags(owner.workspaceId, named('Red', 'Blue'), 'gray', NOW);
      const id = (name: string) => tags.find((tag) => tag.name === name)!.id;
      await stores.tags.setLinkTags(a.id, [id('Red')]);
      await stores.tags.setLinkTags(b.id, [id('Red'), id('Blue')]);
      const filter = { workspaceIds: [owner.workspaceId], now: NOW, limit: 10 };
      const ids = async (tagKeys: string[], tagMode?: 'any' | 'all') => (await stores.links.listLinks({ ...filter, tagKeys, tagMode })).map((link) => link.id);
      assert.deepEqual(await ids(['red']), [b.id, a.id]);
      assert.deepEqual(await ids(['red', 'blue']), [b.id, a.id]);
      assert.deepEqual(await ids(['red', 'blue', 'red'], 'all'), [b.id]);
      assert.equal(await stores.links.countLinks({ ...filter, tagKeys: ['blue'] }), 1);
      assert.deepEqual(await ids(['none']), []);
      await stores.database.db.deleteFrom('links').where('id', '=', b.id).execute();
      assert.deepEqual(await stores.database.db.selectFrom('link_tags').select('link_id').where('link_id', '=', b.id).execute(), []);
      assert.ok(c.id > 0);
    });

    test('carryLinkTags gives moved links the target workspace\'s tags of the same names, made where missing', async () => {
      const [from, to] = [await createOwner(stores.accounts), await createOwner(stores.accounts)];
      const link = await ownedLink(from);
      const source = await stores.tags.ensureTags(from.workspaceId, named('a', 'b'), 'pink', NOW);
      await stores.tags.setLinkTags(link.id, source.map((tag) => tag.id));
      await stores.tags.ensureTags(to.workspaceId, named('A'), 'blue', NOW);
      await stores.database.db.updateTable('links').set({ workspace_id: to.workspaceId }).where('id', '=', link.id).execute();
      await stores.tags.carryLinkTags([link.id], to.workspaceId, NOW);
      const carried = (await stores.tags.tagsOfLinks([link.id])).get(link.id)!;
      assert.deepEqual(carried.map((tag) => [tag.workspaceId, tag.name, tag.colour]), [[to.workspaceId, 'A', 'blue'], [to.workspaceId, 'b', 'pink']]);
    });
  });
}
