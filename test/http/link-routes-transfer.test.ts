import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, createWorkspace } from '../support/owned-links.js';
import { exportWorkspace, importIntoWorkspace, withCodesSuffixed } from '../support/workspace-transfer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const ROUTES = [{ country: ['DE', 'AT'], device: ['ios'], url: 'https://example.com/de-ios' }, { language: ['pt'], url: 'https://example.com/pt' }];
const VARIANTS = [{ url: 'https://example.com/a', weight: 3 }, { url: 'https://example.com/b', weight: 1 }];

/** Routes and variants (ADR 0031) leave in an export and come back through the import route, held to the API's rules. */
describe('routes and variants in exports and imports', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    owner = await registerUser(t.app);
  });

  const importInto = (workspaceId: number, content: string) => importIntoWorkspace(t.app, owner.token, workspaceId, content);
  const linksOf = async (workspaceId: number) => (await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${workspaceId}/links`, headers: bearer(owner.token) }))
    .json().items.map((link: { original_url: string; routes: unknown; variants: unknown }) => [link.original_url, link.routes, link.variants]).sort();

  for (const format of ['csv', 'json'] as const) {
    test(`${format}: routes and variants survive export → import into another workspace`, async () => {
      const source = await createWorkspace(t.app, owner.token, `source ${format}`);
      await createLink(t.app, owner.token, { url: `https://example.com/${format}/routed`, workspaceId: source, routes: ROUTES, variants: VARIANTS });
      await createLink(t.app, owner.token, { url: `https://example.com/${format}/plain`, workspaceId: source });
      const exported = await exportWorkspace(t.app, owner.token, source, format);
      const renamed = withCodesSuffixed(exported, format);
      const target = await createWorkspace(t.app, owner.token, `target ${format}`);
      const imported = await importInto(target, renamed);
      assert.equal(imported.json().created, 2, imported.body);
      assert.deepEqual(await linksOf(target), await linksOf(source));
      assert.deepEqual(await linksOf(target), [
        [`https://example.com/${format}/plain`, [], []],
        [`https://example.com/${format}/routed`, ROUTES, VARIANTS],
      ]);
    });
  }

  test('a row whose route points at a private address, or with a single variant, is rejected with its reason', async () => {
    const target = await createWorkspace(t.app, owner.token, 'refused');
    const header = '{"format":"linkforge","version":1}';
    const rows = [
      { code: 'private1', url: 'https://example.com/p', routes: [{ device: ['ios'], url: 'http://10.1.2.3/' }] },
      { code: 'single1', url: 'https://example.com/s', variants: [{ url: 'https://example.com/a', weight: 1 }] },
    ];
    const result = await importInto(target, [header, ...rows.map((row) => JSON.stringify(row))].join('\n'));
    assert.equal(result.statusCode, 200, result.body);
    assert.deepEqual([result.json().created, result.json().rejections.map((r: { reason: string }) => r.reason)],
      [0, ['url_private_address_not_allowed', 'variants_invalid']]);
  });
});
