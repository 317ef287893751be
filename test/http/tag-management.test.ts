import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { addMember, createLink, createWorkspace } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0030: a workspace's tags listed with counts, created, renamed, recoloured and deleted, by whom. */
describe('tag management', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let admin: RegisteredUser;
  let member: RegisteredUser;
  let stranger: RegisteredUser;
  let team: number;
  let teamKey: string;
  let foreignKey: string;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    [owner, admin, member, stranger] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    team = await createWorkspace(t.app, owner.token, 'tag team');
    await addMember(t.app, owner.token, team, admin.user.email, 'admin');
    await addMember(t.app, owner.token, team, member.user.email, 'member');
    teamKey = await createApiKey(t.app, owner.token, team);
    foreignKey = await createApiKey(t.app, owner.token, owner.personalWorkspaceId);
  });

  const call = (token: string | undefined, options: InjectOptions) =>
    t.app.inject({ ...options, headers: token === undefined ? {} : bearer(token) });
  const tagsPath = (workspaceId = team) => `/api/v1/workspaces/${workspaceId}/tags`;
  const newTag = async (name: string, colour?: string) => {
    const response = await call(owner.token, { method: 'POST', url: tagsPath(), payload: { name, ...(colour && { colour }) } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: number; name: string; colour: string };
  };
  const tagTable = () => t.deps.database.db.selectFrom('tags').select(['id', 'name', 'colour']).orderBy('id').execute();
  const joinTable = () => t.deps.database.db.selectFrom('link_tags').selectAll().orderBy('link_id').orderBy('tag_id').execute();

  test('lists tags in name order with their link counts; a create answers 201 with a location, grey by default', async () => {
    const space = await createWorkspace(t.app, owner.token, 'counted');
    await createLink(t.app, owner.token, { url: 'https://example.com/m/1', workspaceId: space, tags: ['beta', 'Alpha'] });
    await createLink(t.app, owner.token, { url: 'https://example.com/m/2', workspaceId: space, tags: ['alpha'] });
    const created = await call(owner.token, { method: 'POST', url: tagsPath(space), payload: { name: 'Gamma', colour: '#A1B2C3' } });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers.location, `${tagsPath(space)}/${created.json().id}`);
    assert.deepEqual([created.json().name, created.json().colour], ['Gamma', '#a1b2c3']);
    const list = await call(owner.token, { method: 'GET', url: tagsPath(space) });
    assert.deepEqual(list.json().items.map((tag: { name: string; colour: string; link_count: number }) => [tag.name, tag.colour, tag.link_count]),
      [['Alpha', 'gray', 2], ['beta', 'gray', 1], ['Gamma', '#a1b2c3', 0]]);
  });

  test('a rename shows on every link carrying the tag; a recolour keeps the name', async () => {
    const tag = await newTag('old name');
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/m/rename', workspaceId: team, tags: ['old name'] });
    const renamed = await call(owner.token, { method: 'PATCH', url: `${tagsPath()}/${tag.id}`, payload: { name: 'New Name' } });
    assert.deepEqual([renamed.statusCode, renamed.json().name, renamed.json().colour], [200, 'New Name', 'gray']);
    const recoloured = await call(owner.token, { method: 'PATCH', url: `${tagsPath()}/${tag.id}`, payload: { colour: 'teal' } });
    assert.deepEqual([recoloured.json().name, recoloured.json().colour], ['New Name', 'teal']);
    const read = await call(owner.token, { method: 'GET', url: `/api/urls/${link.id}` });
    assert.deepEqual(read.json().tags, ['New Name']);
    const recase = await call(owner.token, { method: 'PATCH', url: `${tagsPath()}/${tag.id}`, payload: { name: 'new name' } });
    assert.equal(recase.json().name, 'new name', 'a change of case alone is a rename, not a conflict with itself');
  });

  test('a delete takes the tag off its links and keeps the links', async () => {
    const tag = await newTag('doomed');
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/m/delete', workspaceId: team, tags: ['doomed', 'kept'] });
    const deleted = await call(owner.token, { method: 'DELETE', url: `${tagsPath()}/${tag.id}` });
    assert.equal(deleted.statusCode, 204);
    const read = await call(owner.token, { method: 'GET', url: `/api/urls/${link.id}` });
    assert.deepEqual([read.statusCode, read.json().tags], [200, ['kept']]);
    const again = await call(owner.token, { method: 'DELETE', url: `${tagsPath()}/${tag.id}` });
    assert.deepEqual([again.statusCode, again.json().code], [404, 'tag_not_found']);
  });

  test('a name the workspace has, in any case, is a 409 naming the field; bad names and colours are 400s naming theirs', async () => {
    const tag = await newTag('Unique');
    const other = await newTag('other');
    const before = [await tagTable(), await joinTable()];
    const taken = await call(owner.token, { method: 'POST', url: tagsPath(), payload: { name: 'UNIQUE' } });
    assert.deepEqual([taken.statusCode, taken.json().code, taken.json().field], [409, 'tag_name_taken', 'name']);
    const renameTaken = await call(owner.token, { method: 'PATCH', url: `${tagsPath()}/${other.id}`, payload: { name: 'unique' } });
    assert.deepEqual([renameTaken.statusCode, renameTaken.json().code], [409, 'tag_name_taken']);
    const bad: Array<[InjectOptions, string, string]> = [
      [{ method: 'POST', url: tagsPath(), payload: { name: 'a,b' } }, 'tag_name_invalid', 'name'],
      [{ method: 'POST', url: tagsPath(), payload: { name: 'ok', colour: 'chartreuse' } }, 'tag_colour_invalid', 'colour'],
      [{ method: 'PATCH', url: `${tagsPath()}/${tag.id}`, payload: { colour: '#12345' } }, 'tag_colour_invalid', 'colour'],
      [{ method: 'PATCH', url: `${tagsPath()}/${tag.id}`, payload: { name: '' } }, 'tag_name_invalid', 'name'],
    ];
    for (const [options, code, field] of bad) {
      const response = await call(owner.token, options);
      assert.deepEqual([response.statusCode, response.json().code, response.json().field], [400, code, field], JSON.stringify(options.payload));
      assert.match(response.json().detail, new RegExp(field));
    }
    for (const payload of [{}, { name: 'x', extra: 1 }]) {
      const response = await call(owner.token, { method: 'PATCH', url: `${tagsPath()}/${tag.id}`, payload });
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
    }
    assert.deepEqual([await tagTable(), await joinTable()], before, 'nothing changed');
  });

  test('every caller kind: members use tags, owners, admins and the workspace\'s key manage them, others get 401 or 404', async () => {
    const tag = await newTag('guarded');
    const routes = (name: string): Array<[string, InjectOptions]> => [
      ['list', { method: 'GET', url: tagsPath() }],
      ['create', { method: 'POST', url: tagsPath(), payload: { name } }],
      ['rename', { method: 'PATCH', url: `${tagsPath()}/${tag.id}`, payload: { colour: 'blue' } }],
      ['delete', { method: 'DELETE', url: `${tagsPath()}/${tag.id}` }],
    ];
    const expect = async (token: string | undefined, statuses: number[], label: string) => {
      const snapshot = await tagTable();
      const answers = [];
      for (const [, options] of routes(`by ${label.replace(/\W+/g, ' ').trim()}`).slice(0, statuses.length)) answers.push((await call(token, options)).statusCode);
      assert.deepEqual(answers, statuses, label);
      if (statuses.every((status) => status >= 400)) assert.deepEqual(await tagTable(), snapshot, `${label} changed nothing`);
    };
    await expect(undefined, [401, 401, 401, 401], 'no credentials');
    await expect(stranger.token, [404, 404, 404, 404], 'a stranger');
    await expect(foreignKey, [404, 404, 404, 404], 'another workspace\'s key');
    await expect(member.token, [200, 201, 403, 403], 'a member');
    await expect(admin.token, [200, 201, 200], 'an admin');
    await expect(teamKey, [200, 201, 200], 'the workspace\'s key');
    await expect(owner.token, [200, 201, 200, 204], 'the owner');
    const missing = await call(owner.token, { method: 'PATCH', url: `${tagsPath()}/${tag.id}`, payload: { colour: 'red' } });
    assert.deepEqual([missing.statusCode, missing.json().code], [404, 'tag_not_found']);
  });

  test('a tag of another workspace is not found through this one', async () => {
    const elsewhere = await createWorkspace(t.app, owner.token, 'elsewhere');
    const foreign = await call(owner.token, { method: 'POST', url: tagsPath(elsewhere), payload: { name: 'foreign' } });
    const response = await call(owner.token, { method: 'PATCH', url: `${tagsPath()}/${foreign.json().id}`, payload: { colour: 'red' } });
    assert.deepEqual([response.statusCode, response.json().code], [404, 'tag_not_found']);
    const removal = await call(owner.token, { method: 'DELETE', url: `${tagsPath()}/${foreign.json().id}` });
    assert.equal(removal.statusCode, 404);
  });
});
