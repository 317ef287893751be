import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countLinks } from '../support/links.js';
import { createLink, postLink, visit } from '../support/owned-links.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

describe('POST /api/urls with a custom code', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  test('uses the custom code as given, case included', async () => {
    const user = await registerUser(t.app);
    const response = await postLink(t.app, user.token, { url: 'https://example.com/spring', customCode: 'Spring_Sale-26' });
    assert.equal(response.statusCode, 201);
    assert.equal(response.json().shortCode, 'Spring_Sale-26');
    assert.equal((await visit(t.app, 'Spring_Sale-26')).location, 'https://example.com/spring');
  });

  test('refuses reserved words in any case, and malformed codes, with 400', async () => {
    const user = await registerUser(t.app);
    const before = await countLinks(t.deps);
    const reserved = await postLink(t.app, user.token, { url: 'https://example.com/r', customCode: 'Admin' });
    assert.equal(reserved.statusCode, 400);
    assert.equal(reserved.json().code, 'custom_code_reserved');
    for (const customCode of ['ab', 'has space', 'slash/es', 'x'.repeat(65), 'ünï']) {
      const response = await postLink(t.app, user.token, { url: 'https://example.com/r', customCode });
      assert.equal(response.statusCode, 400, customCode);
      assert.equal(response.json().code, 'custom_code_invalid', customCode);
    }
    assert.equal(await countLinks(t.deps), before);
  });

  test('answers 409 code_taken when another link on the domain holds the code', async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    await createLink(t.app, alice.token, { url: 'https://example.com/alice', customCode: 'taken-code' });
    const response = await postLink(t.app, bob.token, { url: 'https://example.com/bob', customCode: 'taken-code' });
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().code, 'code_taken');
  });

  test('answers 409 naming the existing code when the workspace already holds the URL under another code', async () => {
    const user = await registerUser(t.app);
    const existing = await createLink(t.app, user.token, { url: 'https://example.com/held' });
    const before = await countLinks(t.deps);
    const response = await postLink(t.app, user.token, { url: 'https://example.com/held/', customCode: 'another-code' });
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().code, 'url_already_shortened');
    assert.equal(response.json().shortCode, existing.shortCode);
    assert.match(response.json().detail, new RegExp(existing.shortCode));
    assert.equal(await countLinks(t.deps), before);
  });

  test('the same custom code for the same URL again is the same link: 200', async () => {
    const user = await registerUser(t.app);
    const first = await createLink(t.app, user.token, { url: 'https://example.com/again', customCode: 'again-code' });
    const second = await postLink(t.app, user.token, { url: 'https://example.com/again', customCode: 'again-code' });
    assert.equal(second.statusCode, 200);
    assert.equal(second.json().id, first.id);
  });
});

describe('concurrent creates (RELIABILITY C-03, C-04)', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => { t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0' }); });

  test('twenty identical creates at once give one row, one 201 and nineteen 200s with the same code', async () => {
    const user = await registerUser(t.app);
    const before = await countLinks(t.deps);
    const responses = await Promise.all(Array.from({ length: 20 }, () => postLink(t.app, user.token, { url: 'https://example.com/rush' })));
    const statuses = responses.map((response) => response.statusCode).sort();
    assert.deepEqual(statuses, [200, ...Array(18).fill(200), 201].sort());
    assert.equal(new Set(responses.map((response) => response.json().shortCode)).size, 1);
    assert.equal(new Set(responses.map((response) => response.json().id)).size, 1);
    assert.equal(await countLinks(t.deps), before + 1);
  });

  test('twenty creates of slug "promo" for different URLs: exactly one 201, nineteen 409, no 500', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => registerUser(t.app)));
    const before = await countLinks(t.deps);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      postLink(t.app, users[i % users.length]!.token, { url: `https://example.com/promo/${i}`, customCode: 'promo' })));
    const statuses = responses.map((response) => response.statusCode);
    assert.equal(statuses.filter((status) => status === 201).length, 1);
    assert.equal(statuses.filter((status) => status === 409).length, 19);
    assert.ok(responses.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'code_taken'));
    assert.equal(await countLinks(t.deps), before + 1);
    const holder = await t.deps.database.db.selectFrom('links').selectAll().where('code', '=', 'promo').execute();
    assert.equal(holder.length, 1);
  });

  test('twenty identical v1 creates with an API key also give one row', async () => {
    const user = await registerUser(t.app);
    const key = await createApiKey(t.app, user.token, user.personalWorkspaceId);
    const before = await countLinks(t.deps);
    const responses = await Promise.all(Array.from({ length: 20 }, () => t.app.inject({
      method: 'POST', url: `/api/v1/workspaces/${user.personalWorkspaceId}/links`,
      headers: bearer(key), payload: { original_url: 'https://example.com/v1-rush' },
    })));
    assert.equal(responses.filter((response) => response.statusCode === 201).length, 1);
    assert.equal(responses.filter((response) => response.statusCode === 200).length, 19);
    assert.equal(await countLinks(t.deps), before + 1);
  });
});
