import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliBackend } from '../support/cli.js';
import { suiteScope } from '../support/teardown.js';
import { DEFAULT_PASSWORD } from '../support/users.js';

describe('linkforge link create --password --confirm', () => {
  const suite = suiteScope();

  test('stores the password as a bcrypt hash and turns the confirmation page on; a short password is a usage error', async () => {
    const cli = await createCliBackend(suite);
    assert.equal((await cli.run(['user', 'create', 'gates@example.com'], { input: DEFAULT_PASSWORD })).code, 0);
    const created = await cli.run(['link', 'create', 'https://example.com/cli-gate', '--code', 'cligate', '--password', 'cli secret', '--confirm']);
    assert.equal(created.code, 0, created.stderr);
    const refused = await cli.run(['link', 'create', 'https://example.com/cli-short', '--password', 'abc']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /password/);
    const t = await cli.app(suite);
    const link = await t.deps.store.findLinkByCode(t.deps.redirects.domain, 'cligate');
    assert.match(link!.passwordHash!, /^\$2[aby]\$/);
    assert.deepEqual(link!.options, { confirmBeforeRedirect: true });
    await t.close();
  });
});
