import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createLink, createWorkspace } from '../support/owned-links.js';
import { exportWorkspace, importIntoWorkspace, withCodesSuffixed } from '../support/workspace-transfer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0030 over HTTP, on both databases: tags leave in an export with their colours and come back through the import route. */
describe('tags in exports and imports', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    owner = await registerUser(t.app);
  });

  const importInto = (workspaceId: number, content: string | Buffer, query = '') => importIntoWorkspace(t.app, owner.token, workspaceId, content, query);
  const tagList = async (workspaceId: number) => (await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}/tags`, headers: bearer(owner.token) }))
    .json().items.map((tag: { name: string; colour: string; link_count: number }) => [tag.name, tag.colour, tag.link_count]);

  for (const format of ['csv', 'json'] as const) {
    test(`${format}: each link's tags and their colours survive export → import into another workspace (a dry run makes none)`, async () => {
      const source = await createWorkspace(t.app, owner.token, `source ${format}`);
      await createLink(t.app, owner.token, { url: `https://example.com/x/${format}/a`, workspaceId: source, tags: ['Launch', 'Ünïcode'] });
      await createLink(t.app, owner.token, { url: `https://example.com/x/${format}/b`, workspaceId: source });
      const launch = (await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${source}/tags`, headers: bearer(owner.token) })).json().items[0];
      await t.app.inject({ method: 'PATCH', url: `/api/v1/workspaces/${source}/tags/${launch.id}`, headers: bearer(owner.token), payload: { colour: '#00aa88' } });
      const exported = await exportWorkspace(t.app, owner.token, source, format);
      assert.match(exported, /#00aa88/);
      // The codes are taken in this database: the copy goes in under other codes, as another instance would take them.
      const renamed = withCodesSuffixed(exported, format);
      const target = await createWorkspace(t.app, owner.token, `target ${format}`);
      const dry = await importInto(target, renamed, '?dry_run=true');
      assert.equal(dry.statusCode, 200, dry.body);
      assert.deepEqual(await tagList(target), []);
      const imported = await importInto(target, renamed);
      assert.equal(imported.json().created, 2, imported.body);
      assert.deepEqual(await tagList(target), [['Launch', '#00aa88', 1], ['Ünïcode', 'gray', 1]]);
    });
  }

  test('a Shlink export\'s tags become tags; a Linkforge row with a bad tag is rejected with its reason', async () => {
    const target = await createWorkspace(t.app, owner.token, 'shlink');
    const shlink = await importInto(target, fs.readFileSync('test/fixtures/imports/shlink.csv'));
    assert.equal(shlink.statusCode, 200, shlink.body);
    assert.deepEqual(await tagList(target), [['docs', 'gray', 1], ['shlink', 'gray', 1]]);
    const header = 'code,url,status,created_at,updated_at,expires_at,deleted_at,redirect_count,human_count,bot_count,preview_count,avg_redirect_ms,tags';
    const bad = await importInto(target, `${header}\nbadtag1,https://example.com/bad-tag,ACTIVE,,,,,0,0,0,0,0,"[""a,b""]"\n`);
    assert.deepEqual([bad.json().created, bad.json().rejections[0]?.reason], [0, 'tag_name_invalid']);
  });
});
