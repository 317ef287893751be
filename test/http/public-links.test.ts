import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createAnonymousLink } from '../../src/links/create-anonymous-link.js';
import { CodeSpaceExhaustedError } from '../../src/core/errors.js';
import { createTestApp } from '../support/test-app.js';
import { countLinks, insertLink } from '../support/links.js';

const create = (t: Awaited<ReturnType<typeof createTestApp>>, url: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url }, headers });

describe('POST /api/urls/public', () => {
  test('creates a temporary link that expires ANON_TTL after creation, with a claim token', async (context) => {
    const t = await createTestApp(context);
      const res = await create(t, '  https://Example.com/a/?b=2&a=1#top ');
      assert.equal(res.statusCode, 201);
      const body = res.json();
      assert.match(body.shortCode, /^[A-Za-z0-9]{7}$/);
      assert.equal(body.shortUrl, `http://sho.rt/${body.shortCode}`);
      assert.equal(body.originalUrl, 'https://example.com/a/?b=2&a=1#top');
      assert.equal(body.normalizedUrl, 'https://example.com/a?a=1&b=2');
      assert.equal(body.linkType, 'TEMPORARY');
      assert.equal(body.status, 'ACTIVE');
      assert.equal(body.workspaceId, null);
      assert.equal(body.createdAt, new Date(t.clock.now()).toISOString());
      assert.equal(body.expiresAt, new Date(t.clock.now() + 8 * 3_600_000).toISOString());
      assert.equal(res.headers.location, `/api/urls/${body.id}`);
      assert.ok(Buffer.from(body.claimToken, 'base64url').length >= 16, 'claim token carries at least 128 bits');

      const row = await t.deps.database.db.selectFrom('links').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
      assert.equal(row.claim_token_hash, createHash('sha256').update(body.claimToken).digest('hex'));
      assert.ok(!JSON.stringify(row).includes(body.claimToken), 'the token itself is never stored');
      assert.equal(row.owner_id, null);

      const redirect = await t.app.inject({ url: `/${body.shortCode}` });
      assert.equal(redirect.statusCode, 302);
      assert.equal(redirect.headers.location, body.originalUrl);
  });

  test('honours ANON_TTL and expires the link exactly then', async (context) => {
    const t = await createTestApp(context, { ANON_TTL: '15m' });
      const body = (await create(t, 'https://example.com/')).json();
      assert.equal(Date.parse(body.expiresAt) - t.clock.now(), 15 * 60_000);
      t.clock.advance(15 * 60_000);
      assert.equal((await t.app.inject({ url: `/${body.shortCode}` })).statusCode, 410);
  });

  test('never deduplicates: the same URL twice gives two links with different codes and tokens', async (context) => {
    const t = await createTestApp(context);
      const a = (await create(t, 'https://example.com/same')).json();
      const b = (await create(t, 'https://example.com/same')).json();
      assert.notEqual(a.shortCode, b.shortCode);
      assert.notEqual(a.claimToken, b.claimToken);
      assert.equal(await countLinks(t.deps), 2);
  });

  test('retries with a new code when the drawn one is taken', async (context) => {
    const t = await createTestApp(context);
      await insertLink(t.deps, { code: 'Taken01' });
      const drawn = ['Taken01', 'Taken01', 'Fresh01'];
      const { link } = await createAnonymousLink({ ...t.deps.links.anonymous, generateCode: () => drawn.shift()! }, 'https://example.com/');
      assert.equal(link.code, 'Fresh01');
      assert.equal(await countLinks(t.deps), 2);
  });

  test('gives up after 5 collisions with a 500-class error and stores nothing', async (context) => {
    const t = await createTestApp(context);
      await insertLink(t.deps, { code: 'Taken02' });
      let draws = 0;
      await assert.rejects(
        createAnonymousLink({ ...t.deps.links.anonymous, generateCode: () => { draws += 1; return 'Taken02'; } }, 'https://example.com/'),
        (error: unknown) => error instanceof CodeSpaceExhaustedError && error.status === 500,
      );
      assert.equal(draws, 5);
      assert.equal(await countLinks(t.deps), 1);
  });

  test('is rate-limited per client IP with 429 and Retry-After', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_ANON: '2' });
      const from = (ip: string) => t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/' }, remoteAddress: ip });
      assert.equal((await from('203.0.113.1')).statusCode, 201);
      assert.equal((await from('203.0.113.1')).statusCode, 201);
      const limited = await from('203.0.113.1');
      assert.equal(limited.statusCode, 429);
      assert.ok(Number(limited.headers['retry-after']) > 0);
      assert.equal(limited.json().code, 'rate_limit_exceeded');
      assert.equal((await from('203.0.113.2')).statusCode, 201, 'another client is not limited');
      assert.equal(await countLinks(t.deps), 3);
  });

  test('ignores X-Forwarded-For unless TRUST_PROXY is set', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_ANON: '1' });
      const spoofed = (ip: string) => t.app.inject({ method: 'POST', url: '/api/urls/public', payload: { url: 'https://example.com/' }, headers: { 'x-forwarded-for': ip } });
      assert.equal((await spoofed('198.51.100.1')).statusCode, 201);
      assert.equal((await spoofed('198.51.100.2')).statusCode, 429);
  });

  test('RATE_LIMIT_ANON=0 turns the limit off', async (context) => {
    const t = await createTestApp(context, { RATE_LIMIT_ANON: '0' });
      for (let i = 0; i < 25; i++) assert.equal((await create(t, `https://example.com/${i}`)).statusCode, 201);
  });
});
