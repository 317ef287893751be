import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { addMember, createWorkspace } from '../support/owned-links.js';
import { startDnsServer, type DnsRecords } from '../support/dns-server.js';
import { freePort } from '../support/free-port.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

interface DomainJson {
  id: number; hostname: string; status: string; verified_at: string | null;
  verification: { token: string; txt_record: { name: string; value: string }; http_url: string };
  root_redirect_url: string | null; not_found_redirect_url: string | null;
}

/** ADR 0036: a workspace's custom domains: who may manage them, the hostname's rules, and both ways of verifying. */
describe('custom domains', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let admin: RegisteredUser;
  let member: RegisteredUser;
  let stranger: RegisteredUser;
  let team: number;
  let teamKey: string;
  let dns: DnsRecords;
  let port: number;
  let serial = 0;
  const suite = suiteScope();
  before(async () => {
    const server = await startDnsServer(suite);
    dns = server.records;
    port = await freePort();
    t = await createTestApp(suite, {
      RATE_LIMIT_AUTH: '0', DOMAIN_DNS_SERVERS: server.address, DOMAIN_CHALLENGE_HTTP_PORT: String(port), ALLOW_PRIVATE_DESTINATIONS: 'true',
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    [owner, admin, member, stranger] = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    team = await createWorkspace(t.app, owner.token, 'domain team');
    await addMember(t.app, owner.token, team, admin.user.email, 'admin');
    await addMember(t.app, owner.token, team, member.user.email, 'member');
    teamKey = await createApiKey(t.app, owner.token, team);
  });

  const call = (token: string | undefined, options: InjectOptions) => t.app.inject({ ...options, headers: { ...options.headers, ...(token === undefined ? {} : bearer(token)) } });
  const domainsPath = (workspaceId = team) => `/api/v1/workspaces/${workspaceId}/domains`;
  const hostname = (label = 'go') => `${label}${++serial}.example.com`;
  const newDomain = async (name = hostname(), extra: Record<string, unknown> = {}) => {
    const response = await call(owner.token, { method: 'POST', url: domainsPath(), payload: { hostname: name, ...extra } });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as DomainJson;
  };
  const domainRows = () => t.deps.database.db.selectFrom('domains').selectAll().orderBy('id').execute();

  test('an owner registers a domain: pending, with the TXT record and the HTTP address to set', async () => {
    const created = await call(owner.token, { method: 'POST', url: domainsPath(), payload: { hostname: 'Links.Example.COM.' } });
    assert.equal(created.statusCode, 201, created.body);
    const domain = created.json() as DomainJson;
    assert.equal(created.headers.location, `${domainsPath()}/${domain.id}`);
    assert.equal(domain.hostname, 'links.example.com');
    assert.equal(domain.status, 'pending');
    assert.equal(domain.verified_at, null);
    assert.match(domain.verification.token, /^lfv_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(domain.verification.txt_record, { name: '_linkforge-challenge.links.example.com', value: domain.verification.token });
    assert.equal(domain.verification.http_url, `http://links.example.com/.well-known/linkforge-challenge/${domain.verification.token}`);
    const listed = await call(owner.token, { method: 'GET', url: domainsPath() });
    assert.deepEqual((listed.json().items as DomainJson[]).map((d) => d.hostname), ['links.example.com']);
    const one = await call(admin.token, { method: 'GET', url: `${domainsPath()}/${domain.id}` });
    assert.equal(one.json().hostname, 'links.example.com');
  });

  test('an international name is stored as punycode; a taken one is a 409 whichever workspace asks', async () => {
    const domain = await newDomain('Bücher.example.com');
    assert.equal(domain.hostname, 'xn--bcher-kva.example.com');
    const again = await call(stranger.token, { method: 'POST', url: domainsPath(stranger.personalWorkspaceId), payload: { hostname: 'BÜCHER.example.com' } });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'domain_taken');
  });

  test('names that are not a public DNS name, or are this service\'s own host, are refused with 400 and change nothing', async () => {
    const before = await domainRows();
    for (const bad of ['sho.rt', 'SHO.RT', 'https://x.example.com', 'x.example.com:8443', 'x.example.com/path', 'localhost', 'intranet',
      '127.0.0.1', '[::1]', 'x.localhost', 'box.internal', 'a..example.com', '-x.example.com', `${'a'.repeat(64)}.example.com`, 'x y.example.com', '']) {
      const response = await call(owner.token, { method: 'POST', url: domainsPath(), payload: { hostname: bad } });
      assert.equal(response.statusCode, 400, `${bad}: ${response.body}`);
      assert.equal(response.json().code, 'domain_invalid', bad);
    }
    assert.deepEqual(await domainRows(), before);
  });

  test('members get 403, strangers and other workspaces\' keys 404, on every route; nothing changes', async () => {
    const domain = await newDomain();
    const otherKey = await createApiKey(t.app, stranger.token, stranger.personalWorkspaceId);
    const before = await domainRows();
    const routes: InjectOptions[] = [
      { method: 'POST', url: domainsPath(), payload: { hostname: hostname() } },
      { method: 'GET', url: domainsPath() },
      { method: 'GET', url: `${domainsPath()}/${domain.id}` },
      { method: 'PATCH', url: `${domainsPath()}/${domain.id}`, payload: { root_redirect_url: 'https://example.com/' } },
      { method: 'DELETE', url: `${domainsPath()}/${domain.id}` },
      { method: 'POST', url: `${domainsPath()}/${domain.id}/verify` },
    ];
    for (const route of routes) {
      const asMember = await call(member.token, route);
      assert.equal(asMember.statusCode, 403, `${route.method} ${route.url}: ${asMember.body}`);
      assert.equal(asMember.json().code, 'permission_denied');
      for (const outsider of [stranger.token, otherKey]) {
        const response = await call(outsider, route);
        assert.equal(response.statusCode, 404, `${route.method} ${route.url}: ${response.body}`);
        assert.equal(response.json().code, 'workspace_not_found');
      }
      assert.equal((await call(undefined, route)).statusCode, 401);
    }
    assert.deepEqual(await domainRows(), before);
    const byKey = await call(teamKey, { method: 'GET', url: `${domainsPath()}/${domain.id}` });
    assert.equal(byKey.statusCode, 200, byKey.body);
  });

  test('the root and not-found redirects follow the rules of link destinations; null clears one', async () => {
    const domain = await newDomain(hostname(), { root_redirect_url: 'https://example.com/home' });
    assert.equal(domain.root_redirect_url, 'https://example.com/home');
    const path = `${domainsPath()}/${domain.id}`;
    for (const bad of ['javascript:alert(1)', 'http://sho.rt/x', 'not a url']) {
      const response = await call(admin.token, { method: 'PATCH', url: path, payload: { not_found_redirect_url: bad } });
      assert.equal(response.statusCode, 400, `${bad}: ${response.body}`);
    }
    const patched = await call(admin.token, { method: 'PATCH', url: path, payload: { root_redirect_url: null, not_found_redirect_url: 'https://example.com/missing' } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual([patched.json().root_redirect_url, patched.json().not_found_redirect_url], [null, 'https://example.com/missing']);
    const missing = await call(owner.token, { method: 'PATCH', url: `${domainsPath()}/999999`, payload: { root_redirect_url: null } });
    assert.equal(missing.json().code, 'domain_not_found');
  });

  test('verify is 409 while neither the TXT record nor the HTTP challenge shows the token; a wrong TXT value does not count', async () => {
    const domain = await newDomain();
    dns.txt.set(`_linkforge-challenge.${domain.hostname}`, ['lfv_someone-elses-token']);
    const response = await call(owner.token, { method: 'POST', url: `${domainsPath()}/${domain.id}/verify` });
    assert.equal(response.statusCode, 409, response.body);
    assert.equal(response.json().code, 'domain_verification_failed');
    assert.match(response.json().detail, new RegExp(`_linkforge-challenge\\.${domain.hostname.replaceAll('.', '\\.')}`));
    assert.equal((await domainRows()).find((row) => Number(row.id) === domain.id)?.status, 'pending');
  });

  test('a TXT record with the token verifies the domain once; verified_at stays the first time', async () => {
    const domain = await newDomain();
    dns.txt.set(`_linkforge-challenge.${domain.hostname}`, ['unrelated', domain.verification.token]);
    const verified = await call(owner.token, { method: 'POST', url: `${domainsPath()}/${domain.id}/verify` });
    assert.equal(verified.statusCode, 200, verified.body);
    assert.equal(verified.json().status, 'verified');
    assert.equal(verified.json().verified_at, new Date(t.clock.now()).toISOString());
    t.clock.advance(60_000);
    const again = await call(owner.token, { method: 'POST', url: `${domainsPath()}/${domain.id}/verify` });
    assert.equal(again.json().verified_at, verified.json().verified_at);
  });

  test('the HTTP challenge: the deployment answers the token only for that Host, and a domain pointed at it verifies', async () => {
    const domain = await newDomain();
    const challenge = `/.well-known/linkforge-challenge/${domain.verification.token}`;
    const answered = await t.app.inject({ url: challenge, headers: { host: `${domain.hostname.toUpperCase()}:80` } });
    assert.equal(answered.statusCode, 200);
    assert.equal(answered.body, domain.verification.token);
    assert.equal((await t.app.inject({ url: challenge, headers: { host: 'sho.rt' } })).statusCode, 404);
    assert.equal((await t.app.inject({ url: `/.well-known/linkforge-challenge/lfv_wrong`, headers: { host: domain.hostname } })).statusCode, 404);
    const notPointed = await call(owner.token, { method: 'POST', url: `${domainsPath()}/${domain.id}/verify` });
    assert.equal(notPointed.statusCode, 409, 'no A record yet');
    dns.a.set(domain.hostname, ['127.0.0.1']);
    const verified = await call(owner.token, { method: 'POST', url: `${domainsPath()}/${domain.id}/verify` });
    assert.equal(verified.statusCode, 200, verified.body);
    assert.equal(verified.json().status, 'verified');
  });

  test('delete removes the domain; a second delete is 404', async () => {
    const domain = await newDomain();
    const path = `${domainsPath()}/${domain.id}`;
    assert.equal((await call(admin.token, { method: 'DELETE', url: path })).statusCode, 204);
    assert.equal((await domainRows()).some((row) => Number(row.id) === domain.id), false);
    assert.equal((await call(admin.token, { method: 'DELETE', url: path })).json().code, 'domain_not_found');
  });

  test('the on-demand TLS question: 200 for the instance\'s host and verified domains, 404 for pending and unknown ones, no credentials', async () => {
    const verified = await newDomain();
    dns.txt.set(`_linkforge-challenge.${verified.hostname}`, [verified.verification.token]);
    assert.equal((await call(owner.token, { method: 'POST', url: `${domainsPath()}/${verified.id}/verify` })).statusCode, 200);
    const pending = await newDomain();
    const ask = (domain: string) => t.app.inject({ url: `/api/domains/allowed?domain=${encodeURIComponent(domain)}` });
    assert.equal((await ask('sho.rt')).statusCode, 200);
    assert.equal((await ask(verified.hostname)).statusCode, 200);
    assert.equal((await ask(verified.hostname.toUpperCase())).statusCode, 200);
    assert.equal((await ask(pending.hostname)).statusCode, 404);
    assert.equal((await ask('nobody.example.org')).statusCode, 404);
    assert.equal((await t.app.inject({ url: '/api/domains/allowed' })).statusCode, 400);
    await call(owner.token, { method: 'DELETE', url: `${domainsPath()}/${verified.id}` });
    assert.equal((await ask(verified.hostname)).statusCode, 404, 'a deleted domain gets no certificate');
  });
});
