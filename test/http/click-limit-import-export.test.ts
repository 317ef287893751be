import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, createWorkspace } from '../support/owned-links.js';
import { exportWorkspace, importIntoWorkspace, withCodesSuffixed } from '../support/workspace-transfer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const PERSON = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** The click limit, the clicks left and the fallback URL leave in an export and come back through the import route. */
describe('click limits and fallback URLs in exports and imports', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    owner = await registerUser(t.app);
  });

  const importInto = (workspaceId: number, content: string) => importIntoWorkspace(t.app, owner.token, workspaceId, content);
  const linksOf = async (workspaceId: number) => (await t.app.inject({ url: `/api/v1/workspaces/${workspaceId}/links`, headers: bearer(owner.token) }))
    .json().items.map((link: Record<string, unknown>) => [link.original_url, link.max_clicks, link.clicks_left, link.fallback_url]).sort();

  for (const format of ['csv', 'json'] as const) {
    test(`${format}: max_clicks, clicks_left and fallback_url survive export → import into another workspace`, async () => {
      const source = await createWorkspace(t.app, owner.token, `source ${format}`);
      const limited = await createLink(t.app, owner.token, {
        url: `https://example.com/${format}/limited`, workspaceId: source, maxClicks: 5, fallbackUrl: 'https://example.com/gone',
      });
      await createLink(t.app, owner.token, { url: `https://example.com/${format}/plain`, workspaceId: source });
      for (let i = 0; i < 2; i++) await t.app.inject({ url: `/${limited.shortCode}`, headers: { 'user-agent': PERSON } });
      const exported = await exportWorkspace(t.app, owner.token, source, format);
      const renamed = withCodesSuffixed(exported, format);
      const target = await createWorkspace(t.app, owner.token, `target ${format}`);
      const imported = await importInto(target, renamed);
      assert.equal(imported.json().created, 2, imported.body);
      assert.deepEqual(await linksOf(target), [
        [`https://example.com/${format}/limited`, 5, 3, 'https://example.com/gone'],
        [`https://example.com/${format}/plain`, null, null, null],
      ]);
    });
  }

  test('a row with more clicks left than its limit comes in with its limit; without clicks left, with all of them', async () => {
    const target = await createWorkspace(t.app, owner.token, 'clamped');
    const header = 'code,url,status,created_at,updated_at,expires_at,deleted_at,redirect_count,human_count,bot_count,preview_count,avg_redirect_ms,max_clicks,clicks_left,fallback_url';
    const answer = await importInto(target, `${header}\nclamp1,https://example.com/over,ACTIVE,,,,,0,0,0,0,0,3,9,\nclamp2,https://example.com/fresh,ACTIVE,,,,,0,0,0,0,0,4,,\n`);
    assert.equal(answer.json().created, 2, answer.body);
    assert.deepEqual(await linksOf(target), [['https://example.com/fresh', 4, 4, null], ['https://example.com/over', 3, 3, null]]);
  });

  test('a row whose fallback URL breaks the URL rules, or whose limit is 0, is rejected with its reason', async () => {
    const target = await createWorkspace(t.app, owner.token, 'bad rows');
    const header = 'code,url,status,created_at,updated_at,expires_at,deleted_at,redirect_count,human_count,bot_count,preview_count,avg_redirect_ms,max_clicks,clicks_left,fallback_url';
    const answer = await importInto(target, `${header}\nbadfb1,https://example.com/a,ACTIVE,,,,,0,0,0,0,0,3,3,http://192.168.1.1/\nbadmax1,https://example.com/b,ACTIVE,,,,,0,0,0,0,0,0,,\n`);
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual([answer.json().created, answer.json().rejections.map((r: { reason: string }) => r.reason)],
      [0, ['url_private_address_not_allowed', 'max_clicks_invalid']]);
  });
});
