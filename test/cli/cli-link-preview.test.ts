import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliBackend, oneLine, type CliBackend } from '../support/cli.js';
import { suiteScope } from '../support/teardown.js';
import { DEFAULT_PASSWORD } from '../support/users.js';

describe('link create --preview-*', () => {
  const suite = suiteScope();
  let cli: CliBackend;
  before(async () => {
    cli = await createCliBackend(suite);
    assert.equal((await cli.run(['user', 'create', 'owner@example.com'], { input: DEFAULT_PASSWORD })).code, 0);
  });

  test('the link shows link-preview bots the given card, by the API\'s rules', async (context) => {
    const created = await cli.run(['link', 'create', 'https://example.com/card', '--code', 'card',
      '--preview-title', 'Launch day', '--preview-description', 'All of it', '--preview-image', 'https://cdn.example/launch.png']);
    assert.equal(created.code, 0, created.stderr);
    const refused = await cli.run(['link', 'create', 'https://example.com/refused', '--preview-image', 'http://127.0.0.1/x.png']);
    assert.equal(refused.code, 1);
    assert.match(oneLine(refused.stderr), /preview\.image.*\(url_private_address_not_allowed\)$/);
    const t = await cli.app(context);
    const page = await t.app.inject({ url: '/card', headers: { 'user-agent': 'Twitterbot/1.0' } });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('<meta property="og:title" content="Launch day">'));
    assert.ok(page.body.includes('<meta property="og:image" content="https://cdn.example/launch.png">'));
  });
});
