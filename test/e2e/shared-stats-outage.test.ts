import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertUnavailable, returned } from '../support/outage-answers.js';
import { createLink } from '../support/owned-links.js';
import { startPrivatePostgres } from '../support/private-postgres.js';
import { createTestApp, postgresEnv } from '../support/test-app.js';
import { bearer, registerUser } from '../support/users.js';

// The public shared stats and the CSV export read the database on every request: down, they
// answer 503 with Retry-After (never a 500, never a half-sent file), and come back by themselves.
test('with its PostgreSQL stopped, the shared stats and the visits CSV answer 503 with Retry-After, and recover', { timeout: 90_000 }, async (context) => {
  const server = await startPrivatePostgres(context);
  const env = { ...postgresEnv(server.database), DB_CONNECT_TIMEOUT: '1s', DB_STATEMENT_TIMEOUT: '1s', RATE_LIMIT_ANON: '0', RATE_LIMIT_AUTH: '0' };
  const t = await createTestApp(context, env, { database: 'postgres' });
  const owner = await registerUser(t.app);
  const link = await createLink(t.app, owner.token, { url: 'https://example.com/outage' });
  const { token } = (await t.app.inject({ method: 'POST', url: `/api/urls/${link.id}/share`, headers: bearer(owner.token) })).json();
  const shared = () => returned(t.app.inject({ url: `/api/shared/${token}/stats` }), 'shared stats');
  const csv = () => returned(t.app.inject({ url: `/api/urls/${link.id}/visits.csv`, headers: bearer(owner.token) }), 'visits CSV');
  assert.equal((await shared()).statusCode, 200);
  assert.equal((await csv()).statusCode, 200);

  await server.stop();
  assertUnavailable(await shared(), 'shared stats');
  const down = await csv();
  assertUnavailable(down, 'visits CSV');
  assert.notEqual(down.headers['content-type'], 'text/csv; charset=utf-8');

  await server.start();
  assert.equal((await shared()).statusCode, 200, 'shared stats again without a restart');
  assert.equal((await csv()).statusCode, 200, 'the CSV again without a restart');
});
