import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { countLinks } from '../support/links.js';
import { createAnonymousLink, linkRow } from '../support/owned-links.js';
import { createTestApp } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';

describe('claim races and limits (RELIABILITY C-07, S-82, S-84)', () => {
  test('two users claiming the same link at once: exactly one owns it, the other gets a link of their own', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0' });
    const users = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const anon = await createAnonymousLink(t.app, 'https://example.com/contested');
    const entry = { shortCode: anon.shortCode, claimToken: anon.claimToken, url: 'https://example.com/contested' };
    const responses = await Promise.all(users.map((user) =>
      t.app.inject({ method: 'POST', url: '/api/urls/sync', headers: bearer(user.token), payload: { links: [entry] } })));
    const outcomes = responses.map((response) => response.json().results[0].outcome);
    assert.deepEqual([...outcomes].sort(), ['claimed', 'created']);
    const winner = users[outcomes.indexOf('claimed')]!;
    const row = await linkRow(t.deps, anon.id);
    assert.equal(Number(row.owner_id), winner.user.id);
    assert.equal(Number(row.workspace_id), winner.personalWorkspaceId);
  });

  test('ten concurrent syncs of one entry by its creator: one claimed, nine existing, no new row', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '0' });
    const user = await registerUser(t.app);
    const anon = await createAnonymousLink(t.app, 'https://example.com/eager');
    const before = await countLinks(t.deps);
    const entry = { shortCode: anon.shortCode, claimToken: anon.claimToken, url: 'https://example.com/eager' };
    const responses = await Promise.all(Array.from({ length: 10 }, () =>
      t.app.inject({ method: 'POST', url: '/api/urls/sync', headers: bearer(user.token), payload: { links: [entry] } })));
    const results = responses.map((response) => response.json().results[0]);
    assert.equal(results.filter((r) => r.outcome === 'claimed').length, 1);
    assert.equal(results.filter((r) => r.outcome === 'existing').length, 9);
    assert.ok(results.every((r) => r.link.id === anon.id));
    assert.equal(await countLinks(t.deps), before);
  });

  test('sync is rate-limited per client like sign-in (RATE_LIMIT_AUTH): 429 with Retry-After', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_AUTH: '3' });
    const user = await registerUser(t.app);
    const send = () => t.app.inject({ method: 'POST', url: '/api/urls/sync', headers: bearer(user.token), payload: { links: [] } });
    for (let i = 0; i < 3; i++) assert.equal((await send()).statusCode, 200);
    const limited = await send();
    assert.equal(limited.statusCode, 429);
    assert.ok(limited.headers['retry-after']);
  });
});
