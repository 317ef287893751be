import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLink, createWorkspace } from '../support/owned-links.js';
import { open, submit } from '../support/link-gates.js';
import { exportWorkspace, importIntoWorkspace, withCodesSuffixed } from '../support/workspace-transfer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0031 over HTTP: a password leaves an export as its bcrypt hash, never as the password, and still opens the imported link. */
describe('passwords and confirmation in exports and imports', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' });
    owner = await registerUser(t.app);
  });

  const importInto = (workspaceId: number, content: string) => importIntoWorkspace(t.app, owner.token, workspaceId, content);

  for (const format of ['csv', 'json'] as const) {
    test(`${format}: the hash and the flag survive export → import, and the password opens the copy`, async () => {
      const source = await createWorkspace(t.app, owner.token, `source ${format}`);
      await createLink(t.app, owner.token, { url: `https://example.com/gate/${format}`, workspaceId: source, password: 'carried over', confirmBeforeRedirect: true });
      const exported = await exportWorkspace(t.app, owner.token, source, format);
      assert.ok(!exported.includes('carried over'), 'never the password');
      assert.match(exported, /\$2[aby]\$04\$/);
      const renamed = withCodesSuffixed(exported, format);
      const target = await createWorkspace(t.app, owner.token, `target ${format}`);
      const imported = await importInto(target, renamed);
      assert.equal(imported.json().created, 1, imported.body);
      const [copy] = (await t.app.inject({ method: 'GET', url: `/api/v1/workspaces/${target}/links`, headers: bearer(owner.token) })).json().items;
      assert.deepEqual([copy.has_password, copy.confirm_before_redirect], [true, true]);
      assert.equal((await open(t.app, copy.short_code)).statusCode, 200);
      const right = await submit(t.app, copy.short_code, { password: 'carried over' });
      assert.equal(right.headers.location, `https://example.com/gate/${format}`);
    });
  }

  test('a row whose password hash is not a bcrypt hash is rejected with its reason', async () => {
    const target = await createWorkspace(t.app, owner.token, 'bad hash');
    const header = 'code,url,status,created_at,updated_at,expires_at,deleted_at,redirect_count,human_count,bot_count,preview_count,avg_redirect_ms,password_hash';
    const bad = await importInto(target, `${header}\nbadhash1,https://example.com/bad-hash,ACTIVE,,,,,0,0,0,0,0,plaintext\n`);
    assert.equal(bad.json().created, 0, bad.body);
    assert.match(bad.json().rejections[0]?.detail, /not a bcrypt hash/);
  });
});
