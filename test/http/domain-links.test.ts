import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createWorkspace } from '../support/owned-links.js';
import { verifiedDomain } from '../support/custom-domains.js';
import { startDnsServer, type DnsRecords } from '../support/dns-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0036: links on custom domains, and `GET /{code}` answered by the request's Host. */
describe('links on custom domains', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let stranger: RegisteredUser;
  let team: number;
  let dns: DnsRecords;
  const suite = suiteScope();
  before(async () => {
    const server = await startDnsServer(suite);
    dns = server.records;
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', DOMAIN_DNS_SERVERS: server.address });
    [owner, stranger] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    team = await createWorkspace(t.app, owner.token, 'branded');
    await verifiedDomain(t.app, owner.token, team, dns, 'a.example.com');
    await verifiedDomain(t.app, owner.token, team, dns, 'b.example.com', { root_redirect_url: 'https://example.com/b-home', not_found_redirect_url: 'https://example.com/b-missing' });
    await verifiedDomain(t.app, stranger.token, stranger.personalWorkspaceId, dns, 'theirs.example.com');
  });

  const create = (payload: Record<string, unknown>, workspaceId = team) =>
    t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/links`, headers: bearer(owner.token), payload });
  const visit = (code: string, host: string) => t.app.inject({ url: `/${code}`, headers: { host } });
  const linkRows = () => t.deps.database.db.selectFrom('links').select(['id', 'domain', 'code']).orderBy('id').execute();

  test('the same code on two domains and the default names three links, each answered on its own Host', async () => {
    const onA = await create({ original_url: 'https://example.com/a-promo', custom_code: 'promo', domain: 'A.example.com' });
    assert.equal(onA.statusCode, 201, onA.body);
    assert.deepEqual([onA.json().domain, onA.json().short_url], ['a.example.com', 'https://a.example.com/promo']);
    const onB = await create({ original_url: 'https://example.com/b-promo', custom_code: 'promo', domain: 'b.example.com' });
    assert.equal(onB.statusCode, 201, onB.body);
    assert.equal(onB.json().short_url, 'https://b.example.com/promo');
    const onDefault = await create({ original_url: 'https://example.com/default-promo', custom_code: 'promo' });
    assert.equal(onDefault.statusCode, 201, onDefault.body);
    assert.deepEqual([onDefault.json().domain, onDefault.json().short_url], ['sho.rt', 'http://sho.rt/promo']);
    const taken = await create({ original_url: 'https://example.com/a-other', custom_code: 'promo', domain: 'a.example.com' });
    assert.equal(taken.statusCode, 409, taken.body);

    assert.equal((await visit('promo', 'a.example.com')).headers.location, 'https://example.com/a-promo');
    assert.equal((await visit('promo', 'b.example.com')).headers.location, 'https://example.com/b-promo');
    assert.equal((await visit('promo', 'sho.rt')).headers.location, 'https://example.com/default-promo');
    assert.equal((await visit('promo', 'unregistered.example.net')).headers.location, 'https://example.com/default-promo', 'an unknown Host is the default domain');
    assert.equal((await visit('promo', 'theirs.example.com')).statusCode, 404, 'another domain has no such code');
  });

  test('the v1 routes name a link on a custom domain by its code and ?domain=; without it, the code is the default domain\'s', async () => {
    const made = await create({ original_url: 'https://example.com/v1-on-a', custom_code: 'v1code', domain: 'a.example.com' });
    assert.equal(made.statusCode, 201, made.body);
    const path = `/api/v1/workspaces/${team}/links/v1code`;
    assert.equal(made.headers.location, `${path}?domain=a.example.com`);
    assert.equal((await t.app.inject({ url: path, headers: bearer(owner.token) })).statusCode, 404);
    const read = await t.app.inject({ url: made.headers.location as string, headers: bearer(owner.token) });
    assert.equal(read.json().original_url, 'https://example.com/v1-on-a');
    const patched = await t.app.inject({ method: 'PATCH', url: `${path}?domain=A.EXAMPLE.COM`, headers: bearer(owner.token), payload: { original_url: 'https://example.com/v1-edited' } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal((await visit('v1code', 'a.example.com')).headers.location, 'https://example.com/v1-edited', 'the edit invalidated the domain\'s cache entry');
    const foreign = await t.app.inject({ url: `${path}?domain=theirs.example.com`, headers: bearer(owner.token) });
    assert.equal(foreign.json().code, 'domain_not_verified');
    assert.equal((await t.app.inject({ method: 'DELETE', url: `${path}?domain=a.example.com`, headers: bearer(owner.token) })).statusCode, 204);
    assert.equal((await visit('v1code', 'a.example.com')).statusCode, 410);
  });

  test('the v1 stats of a link on a custom domain are named by ?domain= too: each domain\'s link its own clicks', async () => {
    for (const domain of ['a.example.com', undefined]) {
      const made = await create({ original_url: `https://example.com/stats-${domain ?? 'default'}`, custom_code: 'counted', ...(domain ? { domain } : {}) });
      assert.equal(made.statusCode, 201, made.body);
    }
    for (let i = 0; i < 3; i++) assert.equal((await visit('counted', 'a.example.com')).headers.location, 'https://example.com/stats-a.example.com');
    assert.equal((await visit('counted', 'sho.rt')).headers.location, 'https://example.com/stats-default');
    await t.deps.analytics!.flusher.flushNow();
    const path = `/api/v1/workspaces/${team}/links/counted/stats`;
    const clicksOf = async (url: string) => {
      const response = await t.app.inject({ url, headers: bearer(owner.token) });
      assert.equal(response.statusCode, 200, response.body);
      return [response.json().short_code, response.json().totals.total];
    };
    assert.deepEqual(await clicksOf(`${path}?domain=A.example.com`), ['counted', 3]);
    assert.deepEqual(await clicksOf(path), ['counted', 1], 'without ?domain=, the default domain\'s link');
    const foreign = await t.app.inject({ url: `${path}?domain=theirs.example.com`, headers: bearer(owner.token) });
    assert.equal(foreign.json().code, 'domain_not_verified');
  });

  test('a link may be made only on a verified domain of its own workspace: 400 otherwise, nothing stored', async () => {
    const pending = await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${team}/domains`, headers: bearer(owner.token), payload: { hostname: 'pending.example.com' } });
    assert.equal(pending.statusCode, 201);
    const before = await linkRows();
    for (const domain of ['pending.example.com', 'theirs.example.com', 'never.example.com', 'not a host']) {
      const response = await create({ original_url: `https://example.com/refused/${encodeURIComponent(domain)}`, domain });
      assert.equal(response.statusCode, 400, `${domain}: ${response.body}`);
      assert.equal(response.json().code, 'domain_not_verified', domain);
    }
    assert.deepEqual(await linkRows(), before);
    const viaAppApi = await t.app.inject({ method: 'POST', url: '/api/urls', headers: bearer(owner.token), payload: { url: 'https://example.com/app-api', workspaceId: team, domain: 'a.example.com' } });
    assert.equal(viaAppApi.statusCode, 201, viaAppApi.body);
    assert.deepEqual([viaAppApi.json().domain, viaAppApi.json().shortUrl.startsWith('https://a.example.com/')], ['a.example.com', true]);
  });

  test('a destination or a domain redirect on a verified custom domain of this instance would loop: refused like BASE_URL\'s', async () => {
    const looping = await create({ original_url: 'https://B.example.com/promo' });
    assert.equal(looping.statusCode, 400, looping.body);
    assert.equal(looping.json().code, 'url_loop_not_allowed');
    const domains = (await t.app.inject({ url: `/api/v1/workspaces/${team}/domains`, headers: bearer(owner.token) })).json().items as Array<{ id: number; hostname: string }>;
    const a = domains.find((d) => d.hostname === 'a.example.com')!;
    const selfRoot = await t.app.inject({ method: 'PATCH', url: `/api/v1/workspaces/${team}/domains/${a.id}`, headers: bearer(owner.token), payload: { root_redirect_url: 'https://b.example.com/' } });
    assert.equal(selfRoot.json().code, 'url_loop_not_allowed');
    assert.equal((await create({ original_url: 'https://pending.example.com/fine' })).statusCode, 201, 'a name no one verified is an ordinary destination');
  });

  test('a domain\'s root and unknown codes go to its own pages; a domain without them, and the default, answer as before', async () => {
    const root = await t.app.inject({ url: '/', headers: { host: 'b.example.com' } });
    assert.deepEqual([root.statusCode, root.headers.location, root.headers['cache-control']], [302, 'https://example.com/b-home', 'no-store']);
    const missing = await visit('nosuchcode', 'b.example.com');
    assert.deepEqual([missing.statusCode, missing.headers.location], [302, 'https://example.com/b-missing']);
    assert.equal((await visit('nosuchcode', 'a.example.com')).statusCode, 404);
    assert.equal((await visit('nosuchcode', 'sho.rt')).statusCode, 404);
    assert.notEqual((await t.app.inject({ url: '/', headers: { host: 'sho.rt' } })).statusCode, 302);
  });

  test('a deleted domain stops answering its links at once; they are not the default domain\'s', async () => {
    const id = await verifiedDomain(t.app, owner.token, team, dns, 'gone.example.com');
    const created = await create({ original_url: 'https://example.com/gone', custom_code: 'gone1', domain: 'gone.example.com' });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal((await visit('gone1', 'gone.example.com')).statusCode, 301);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${team}/domains/${id}`, headers: bearer(owner.token) });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await visit('gone1', 'gone.example.com')).statusCode, 404);
    assert.equal((await visit('gone1', 'sho.rt')).statusCode, 404);
  });
});

describe('STRICT_HOSTS', () => {
  const suite = suiteScope();
  let t: TestApp;
  let dns: DnsRecords;
  let owner: RegisteredUser;
  before(async () => {
    const server = await startDnsServer(suite);
    dns = server.records;
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', DOMAIN_DNS_SERVERS: server.address, STRICT_HOSTS: 'true' });
    owner = await registerUser(t.app);
    await verifiedDomain(t.app, owner.token, owner.personalWorkspaceId, dns, 'strict.example.com');
  });

  test('a Host no one registered gets 404; BASE_URL\'s host and verified domains answer their links', async () => {
    const made = await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${owner.personalWorkspaceId}/links`, headers: bearer(owner.token), payload: { original_url: 'https://example.com/strict', custom_code: 'strict1' } });
    assert.equal(made.statusCode, 201, made.body);
    await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${owner.personalWorkspaceId}/links`, headers: bearer(owner.token), payload: { original_url: 'https://example.com/strict-on', custom_code: 'strict1', domain: 'strict.example.com' } });
    assert.equal((await t.app.inject({ url: '/strict1', headers: { host: 'sho.rt' } })).headers.location, 'https://example.com/strict');
    assert.equal((await t.app.inject({ url: '/strict1', headers: { host: 'strict.example.com' } })).headers.location, 'https://example.com/strict-on');
    const stranger = await t.app.inject({ url: '/strict1', headers: { host: 'elsewhere.example.net', accept: 'application/json' } });
    assert.equal(stranger.statusCode, 404);
    assert.equal(stranger.json().code, 'link_not_found');
  });
});
