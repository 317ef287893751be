import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, createWorkspace } from '../support/owned-links.js';
import { exportWorkspace, importIntoWorkspace, withCodesSuffixed } from '../support/workspace-transfer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** A link's preview leaves in the Linkforge export (the `preview` column) and comes back through the import, by the API's rules. */
describe('link previews in exports and imports', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    owner = await registerUser(t.app);
  });

  const importInto = (workspaceId: number, content: string) => importIntoWorkspace(t.app, owner.token, workspaceId, content);
  const previewsOf = async (workspaceId: number) => (await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}/links`, headers: bearer(owner.token) }))
    .json().items.map((link: { original_url: string; preview: unknown }) => [link.original_url, link.preview]).sort();

  for (const format of ['csv', 'json'] as const) {
    test(`${format}: a preview survives export → import into another workspace`, async () => {
      const source = await createWorkspace(t.app, owner.token, `source ${format}`);
      const preview = { title: '"Quoted", =SUM(A1) & <b>', description: 'Ünïcode, commas', image: 'https://cdn.example/card.png' };
      await createLink(t.app, owner.token, { url: `https://example.com/p/${format}/a`, workspaceId: source, preview });
      await createLink(t.app, owner.token, { url: `https://example.com/p/${format}/b`, workspaceId: source });
      const exported = await exportWorkspace(t.app, owner.token, source, format);
      const renamed = withCodesSuffixed(exported, format, 'p');
      const target = await createWorkspace(t.app, owner.token, `target ${format}`);
      const imported = await importInto(target, renamed);
      assert.equal(imported.json().created, 2, imported.body);
      assert.deepEqual(await previewsOf(target), [[`https://example.com/p/${format}/a`, preview], [`https://example.com/p/${format}/b`, null]]);
    });
  }

  test('a row whose preview breaks the rules is rejected with its reason', async () => {
    const target = await createWorkspace(t.app, owner.token, 'bad previews');
    const header = '{"format":"linkforge","version":1}';
    const row = (code: string, preview: unknown) => JSON.stringify({ code, url: `https://example.com/bad/${code}`, preview });
    const answer = await importInto(target, [header, row('badimg1', { image: 'http://192.168.1.1/x.png' }), row('badtitle1', { title: 'a\nb' }), row('badkey1', { colour: 'red' })].join('\n'));
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(answer.json().created, 0);
    assert.deepEqual(answer.json().rejections.map((r: { reason: string }) => r.reason), ['url_private_address_not_allowed', 'preview_invalid', 'row_unreadable']);
  });
});
