import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allLinkRows, createLink, createWorkspace, postLink } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0030: tags given on create and edit, shown on every link answer, filtered by, in both API spellings. */
describe('tags on links', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let team: number;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    owner = await registerUser(t.app);
    team = await createWorkspace(t.app, owner.token, 'tagged team');
  });

  const tagsOf = async (workspaceId: number) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}/tags`, headers: bearer(owner.token) });
    assert.equal(response.statusCode, 200, response.body);
    return (response.json().items as Array<{ name: string; colour: string; link_count: number }>).map((tag) => [tag.name, tag.colour, tag.link_count]);
  };
  const tagRows = () => t.deps.database.db.selectFrom('link_tags').selectAll().orderBy('link_id').orderBy('tag_id').execute();

  test('a create with tags answers them in name order, makes the missing ones once whatever their case, and a GET shows them', async () => {
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/tags/create', workspaceId: team, tags: ['  Launch  ', 'news', 'launch', 'Q3  plan'] });
    assert.deepEqual(link.tags, ['Launch', 'news', 'Q3 plan']);
    const read = await t.app.inject({ method: 'GET', url: `/api/urls/${link.id}`, headers: bearer(owner.token) });
    assert.deepEqual(read.json().tags, ['Launch', 'news', 'Q3 plan']);
    const second = await createLink(t.app, owner.token, { url: 'https://example.com/tags/create-2', workspaceId: team, tags: ['LAUNCH'] });
    assert.deepEqual(second.tags, ['Launch'], 'an existing tag keeps its spelling');
    assert.deepEqual(await tagsOf(team), [['Launch', 'gray', 2], ['news', 'gray', 1], ['Q3 plan', 'gray', 1]]);
  });

  test('the v1 API takes and answers tags too, and a v1 PATCH replaces the set ([] removes them all)', async () => {
    const created = await t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${team}/links`, headers: bearer(owner.token),
      payload: { original_url: 'https://example.com/tags/v1', tags: ['api', 'beta'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(created.json().tags, ['api', 'beta']);
    const code = created.json().short_code;
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/v1/workspaces/${team}/links/${code}`, headers: bearer(owner.token), payload: { tags: ['beta', 'gamma'] } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual(patched.json().tags, ['beta', 'gamma']);
    const cleared = await t.app.inject({ method: 'PATCH', url: `/api/v1/workspaces/${team}/links/${code}`, headers: bearer(owner.token), payload: { tags: [] } });
    assert.deepEqual(cleared.json().tags, []);
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${team}/links/${code}`, headers: bearer(owner.token) });
    assert.deepEqual(read.json().tags, []);
  });

  test('an app PATCH of tags alone changes them and keeps the destination; a create of a URL the workspace has leaves its tags', async () => {
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/tags/patch', workspaceId: team, tags: ['one'] });
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/urls/${link.id}`, headers: bearer(owner.token), payload: { tags: ['two'] } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual([patched.json().tags, patched.json().originalUrl], [['two'], 'https://example.com/tags/patch']);
    const again = await postLink(t.app, owner.token, { url: 'https://example.com/tags/patch', workspaceId: team, tags: ['three'] });
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json().tags, ['two']);
  });

  test('lists filter by one tag, by any of several (the default) or by all of them, in both APIs', async () => {
    const space = await createWorkspace(t.app, owner.token, 'filter team');
    const red = await createLink(t.app, owner.token, { url: 'https://example.com/f/red', workspaceId: space, tags: ['red'] });
    const blue = await createLink(t.app, owner.token, { url: 'https://example.com/f/blue', workspaceId: space, tags: ['blue'] });
    const both = await createLink(t.app, owner.token, { url: 'https://example.com/f/both', workspaceId: space, tags: ['red', 'blue'] });
    await createLink(t.app, owner.token, { url: 'https://example.com/f/none', workspaceId: space });
    const listed = async (query: string) => {
      const response = await t.app.inject({ method: 'GET', url: `/api/urls?workspaceId=${space}&${query}`, headers: bearer(owner.token) });
      assert.equal(response.statusCode, 200, response.body);
      return [response.json().total, response.json().items.map((link: { id: number }) => link.id)];
    };
    assert.deepEqual(await listed('tags=RED'), [2, [both.id, red.id]]);
    assert.deepEqual(await listed('tags=red,blue'), [3, [both.id, blue.id, red.id]]);
    assert.deepEqual(await listed('tags=red,%20blue&tagMode=all'), [1, [both.id]]);
    assert.deepEqual(await listed('tags=unknown'), [0, []]);
    const v1 = await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${space}/links?tags=blue,red&tag_mode=all`, headers: bearer(owner.token) });
    assert.deepEqual(v1.json().items.map((link: { short_code: string; tags: string[] }) => [link.short_code, link.tags]), [[both.shortCode, ['blue', 'red']]]);
  });

  test('bad tags are a 400 naming the field, and nothing is written', async () => {
    const linksBefore = await allLinkRows(t.deps);
    const tagRowsBefore = await tagRows();
    const cases: Array<[unknown, string]> = [
      [['ok', 'no,commas'], 'tag_name_invalid'],
      [['-leading'], 'tag_name_invalid'],
      [['x'.repeat(33)], 'tag_name_invalid'],
      [['  '], 'tag_name_invalid'],
      [Array.from({ length: 11 }, (_, i) => `t${i}`), 'tags_too_many'],
      ['not-a-list', 'validation_failed'],
      [[1, 2], 'validation_failed'],
    ];
    for (const [tags, code] of cases) {
      const response = await postLink(t.app, owner.token, { url: 'https://example.com/tags/bad', workspaceId: team, tags });
      assert.equal(response.statusCode, 400, JSON.stringify(tags));
      assert.equal(response.json().code, code, JSON.stringify(tags));
      assert.match(response.json().detail, /tags/, 'the detail names the field');
      if (code !== 'validation_failed') assert.equal(response.json().field, 'tags');
    }
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/tags/bad-patch', workspaceId: team, tags: ['kept'] });
    const patch = await t.app.inject({ method: 'PATCH', url: `/api/urls/${link.id}`, headers: bearer(owner.token), payload: { url: 'https://example.com/tags/moved', tags: ['bad,name'] } });
    assert.equal(patch.statusCode, 400);
    assert.equal(patch.json().field, 'tags');
    const read = await t.app.inject({ method: 'GET', url: `/api/urls/${link.id}`, headers: bearer(owner.token) });
    assert.deepEqual([read.json().originalUrl, read.json().tags], ['https://example.com/tags/bad-patch', ['kept']]);
    const badFilter = await t.app.inject({ method: 'GET', url: '/api/urls?tags=-x', headers: bearer(owner.token) });
    assert.deepEqual([badFilter.statusCode, badFilter.json().field], [400, 'tags']);
    assert.equal((await allLinkRows(t.deps)).length, linksBefore.length + 1);
    assert.equal((await tagRows()).length, tagRowsBefore.length + 1);
  });

  test('an anonymous link takes no tags (400 naming the field), and answers an empty list', async () => {
    const refused = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/tags/anon', tags: ['x'] } });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().detail, /tags/);
    const plain = await t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/tags/anon' } });
    assert.deepEqual(plain.json().tags, []);
  });

  test('an API key tags links in its workspace', async () => {
    const key = await createApiKey(t.app, owner.token, team);
    const created = await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${team}/links`, headers: bearer(key), payload: { original_url: 'https://example.com/tags/key', tags: ['by key'] } });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(created.json().tags, ['by key']);
  });

  test('the redirect of a tagged link answers as before (tags stay off the hot path)', async () => {
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/tags/redirect', workspaceId: team, tags: ['hot'] });
    const response = await t.app.inject({ method: 'GET', url: `/${link.shortCode}` });
    assert.equal(response.headers.location, 'https://example.com/tags/redirect');
  });
});
