import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliBackend, oneLine, type CliBackend } from '../support/cli.js';
import { DEFAULT_PASSWORD } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

const PERSON = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('link create --max-clicks --fallback-url', () => {
  let cli: CliBackend;
  const suite = suiteScope();
  before(async () => {
    cli = await createCliBackend(suite);
    assert.equal((await cli.run(['user', 'create', 'owner@example.com'], { input: DEFAULT_PASSWORD })).code, 0);
  });

  test('makes a link that serves that many people, then sends them to the fallback URL', async (context) => {
    const created = await cli.run(['link', 'create', 'https://example.com/once', '--code', 'once', '--max-clicks', '1', '--fallback-url', 'https://example.com/later']);
    assert.equal(created.code, 0, created.stderr);
    const t = await cli.app(context);
    const follow = async () => (await t.app.inject({ url: '/once', headers: { 'user-agent': PERSON } })).headers.location;
    assert.equal(await follow(), 'https://example.com/once');
    assert.equal(await follow(), 'https://example.com/later');
  });

  test('refuses a limit that is not a positive whole number (exit 2) and a fallback URL the API refuses (exit 1)', async () => {
    for (const limit of ['0', '-3', '2.5', 'ten']) {
      const result = await cli.run(['link', 'create', 'https://example.com/bad-limit', '--max-clicks', limit]);
      assert.equal(result.code, 2, `${limit}: ${result.stderr}`);
    }
    const refused = await cli.run(['link', 'create', 'https://example.com/bad-fallback', '--fallback-url', 'http://127.0.0.1/admin']);
    assert.equal(refused.code, 1);
    assert.match(oneLine(refused.stderr), /fallbackUrl: .*\(url_private_address_not_allowed\)$/);
  });
});
