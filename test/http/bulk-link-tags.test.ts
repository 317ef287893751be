import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, createLink, createWorkspace } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0030: bulk tag and untag, and a move that keeps the links' tags. */
describe('bulk actions and tags', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let member: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    [owner, member] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
  });

  const bulk = (token: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/urls/bulk', headers: bearer(token), payload });
  const tagsOfLink = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/urls/${id}`, headers: bearer(owner.token) })).json().tags;
  const joinRows = () => t.deps.database.db.selectFrom('link_tags').selectAll().orderBy('link_id').orderBy('tag_id').execute();

  test('tag adds tags to every selected link (made where missing), untag takes them off, by ids or by a filter', async () => {
    const space = await createWorkspace(t.app, owner.token, 'bulk tags');
    const a = await createLink(t.app, owner.token, { url: 'https://example.com/bulk/a', workspaceId: space, tags: ['keep'] });
    const b = await createLink(t.app, owner.token, { url: 'https://example.com/bulk/b', workspaceId: space });
    const tagged = await bulk(owner.token, { action: 'tag', ids: [a.id, b.id], tags: ['Sale', 'keep'] });
    assert.deepEqual([tagged.statusCode, tagged.json()], [200, { matched: 2, changed: 2, ids: [a.id, b.id] }]);
    assert.deepEqual([await tagsOfLink(a.id), await tagsOfLink(b.id)], [['keep', 'Sale'], ['keep', 'Sale']]);
    const untagged = await bulk(owner.token, { action: 'untag', matching: { workspaceId: space, tags: 'sale' }, tags: ['SALE', 'never made'] });
    assert.equal(untagged.json().matched, 2);
    assert.deepEqual([await tagsOfLink(a.id), await tagsOfLink(b.id)], [['keep'], ['keep']]);
  });

  test('tag without tags, or with a bad name, is a 400 naming the field; a colleague\'s link is a 403; nothing changes', async () => {
    const space = await createWorkspace(t.app, owner.token, 'bulk guarded');
    await addMember(t.app, owner.token, space, member.user.email, 'member');
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/bulk/guarded', workspaceId: space });
    const before = await joinRows();
    for (const payload of [{ action: 'tag', ids: [link.id] }, { action: 'tag', ids: [link.id], tags: ['bad,name'] }]) {
      const response = await bulk(owner.token, payload);
      assert.deepEqual([response.statusCode, response.json().field], [400, 'tags'], JSON.stringify(payload));
    }
    const refused = await bulk(member.token, { action: 'tag', ids: [link.id], tags: ['mine'] });
    assert.deepEqual([refused.statusCode, refused.json().code], [403, 'link_change_not_allowed']);
    assert.deepEqual(await joinRows(), before);
  });

  test('moved links keep their tags as tags of the target workspace, with their colours', async () => {
    const [from, to] = [await createWorkspace(t.app, owner.token, 'from'), await createWorkspace(t.app, owner.token, 'to')];
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/bulk/move', workspaceId: from, tags: ['travel', 'shared'] });
    const travel = (await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${from}/tags`, headers: bearer(owner.token) })).json().items.find((tag: { name: string }) => tag.name === 'travel');
    await t.app.inject({ method: 'PATCH', url: `/api/v1/workspaces/${from}/tags/${travel.id}`, headers: bearer(owner.token), payload: { colour: 'purple' } });
    await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${to}/tags`, headers: bearer(owner.token), payload: { name: 'Shared', colour: 'green' } });
    const moved = await bulk(owner.token, { action: 'move', ids: [link.id], workspaceId: to });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual(await tagsOfLink(link.id), ['Shared', 'travel']);
    const target = (await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${to}/tags`, headers: bearer(owner.token) })).json().items;
    assert.deepEqual(target.map((tag: { name: string; colour: string; link_count: number }) => [tag.name, tag.colour, tag.link_count]), [['Shared', 'green', 1], ['travel', 'purple', 1]]);
    const source = (await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${from}/tags`, headers: bearer(owner.token) })).json().items;
    assert.deepEqual(source.map((tag: { link_count: number }) => tag.link_count), [0, 0], 'the old workspace\'s tags stay, unused');
  });
});
