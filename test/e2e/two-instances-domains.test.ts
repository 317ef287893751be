import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { verifiedDomain } from '../support/custom-domains.js';
import { startDnsServer } from '../support/dns-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createSecondInstance, type SecondInstance } from '../support/second-instance.js';
import { deleteKeysUnder, eventually, freshKeyPrefix, REDIS_SERVER } from '../support/redis.js';
import { onTeardown, suiteScope } from '../support/teardown.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';

/** ADR 0036: custom domains across two instances on one PostgreSQL and one Redis. */
describe('custom domains on two instances', () => {
  let a: TestApp;
  let b: SecondInstance;
  let owner: RegisteredUser;
  const suite = suiteScope();
  before(async () => {
    const dns = await startDnsServer(suite);
    const prefix = freshKeyPrefix();
    const shared = { REDIS_URL: REDIS_SERVER, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_AUTH: '0', DOMAIN_DNS_SERVERS: dns.address };
    onTeardown(suite, () => deleteKeysUnder(prefix));
    a = await createTestApp(suite, shared, { database: 'postgres' });
    b = await createSecondInstance(suite, a, shared);
    owner = await registerUser(a.app);
    await verifiedDomain(a.app, owner.token, owner.personalWorkspaceId, dns.records, 'one.example.com');
    await verifiedDomain(a.app, owner.token, owner.personalWorkspaceId, dns.records, 'two.example.com');
  });

  const create = (payload: Record<string, unknown>) =>
    a.app.inject({ method: 'POST', url: `/api/v1/workspaces/${owner.personalWorkspaceId}/links`, headers: bearer(owner.token), payload });
  const locationOn = async (instance: TestApp | SecondInstance, host: string, code: string) =>
    (await instance.app.inject({ url: `/${code}`, headers: { host } })).headers.location;

  test('domains verified on A route by Host on B too; the same code answers per domain on both', async () => {
    for (const [domain, url] of [['one.example.com', 'https://example.com/one'], ['two.example.com', 'https://example.com/two']]) {
      const response = await create({ original_url: url, custom_code: 'shared', domain });
      assert.equal(response.statusCode, 201, response.body);
    }
    // B reloads the verified domains on its own every few seconds (ADR 0036).
    assert.ok(await eventually(async () => await locationOn(b, 'two.example.com', 'shared') === 'https://example.com/two', 15_000), 'B knows the domains');
    for (const instance of [a, b]) {
      assert.equal(await locationOn(instance, 'one.example.com', 'shared'), 'https://example.com/one');
      assert.equal(await locationOn(instance, 'two.example.com', 'shared'), 'https://example.com/two');
      assert.equal((await instance.app.inject({ url: '/shared', headers: { host: 'sho.rt' } })).statusCode, 404);
    }
  });

  test('a link on a custom domain edited on A answers its new destination on B: invalidation carries the domain', async () => {
    const made = await create({ original_url: 'https://example.com/before', custom_code: 'edited', domain: 'one.example.com' });
    assert.equal(made.statusCode, 201, made.body);
    assert.ok(await eventually(async () => await locationOn(b, 'one.example.com', 'edited') === 'https://example.com/before', 15_000));
    const patched = await a.app.inject({
      method: 'PATCH', url: `/api/urls/${(await a.deps.database.db.selectFrom('links').select('id').where('code', '=', 'edited').executeTakeFirstOrThrow()).id}`,
      headers: bearer(owner.token), payload: { url: 'https://example.com/after' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.ok(await eventually(async () => await locationOn(b, 'one.example.com', 'edited') === 'https://example.com/after', 1_000), 'B follows within a second');
  });
});
