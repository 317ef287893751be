import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createWorkspace } from '../support/owned-links.js';
import { verifiedDomain } from '../support/custom-domains.js';
import { startDnsServer, type DnsRecords } from '../support/dns-server.js';
import { exportWorkspace, importIntoWorkspace, withCodesSuffixed } from '../support/workspace-transfer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { bearer, registerUser, type RegisteredUser } from '../support/users.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0036: an export names a link's custom domain by its hostname; an import puts it on that verified domain of the target, or refuses the row. */
describe('custom domains in exports and imports', () => {
  let t: TestApp;
  let owner: RegisteredUser;
  let dns: DnsRecords;
  const suite = suiteScope();
  before(async () => {
    const server = await startDnsServer(suite);
    dns = server.records;
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', DOMAIN_DNS_SERVERS: server.address });
    owner = await registerUser(t.app);
  });

  const createOn = async (workspaceId: number, payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/links`, headers: bearer(owner.token), payload });
    assert.equal(response.statusCode, 201, response.body);
  };

  for (const format of ['csv', 'json'] as const) {
    test(`${format}: a link's domain leaves as its hostname and comes back on the target's verified domain; without one the row is refused`, async () => {
      const hostname = `moving-${format}.example.com`;
      const source = await createWorkspace(t.app, owner.token, `source ${format}`);
      const domainId = await verifiedDomain(t.app, owner.token, source, dns, hostname);
      await createOn(source, { original_url: `https://example.com/${format}/branded`, custom_code: `br${format}`, domain: hostname });
      await createOn(source, { original_url: `https://example.com/${format}/plain`, custom_code: `pl${format}` });
      const exported = await exportWorkspace(t.app, owner.token, source, format);
      assert.match(exported, new RegExp(hostname.replaceAll('.', '\\.')));
      const renamed = withCodesSuffixed(exported, format);

      const target = await createWorkspace(t.app, owner.token, `target ${format}`);
      const refused = await importIntoWorkspace(t.app, owner.token, target, renamed);
      assert.equal(refused.statusCode, 200, refused.body);
      assert.equal(refused.json().created, 1, refused.body);
      assert.deepEqual(refused.json().rejections.map((r: { reason: string }) => r.reason), ['domain_not_verified']);
      assert.match(refused.json().rejections[0].detail, new RegExp(hostname.replaceAll('.', '\\.')));

      // The domain moves to the target: deleted at the source, verified again there.
      await t.app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${source}/domains/${domainId}`, headers: bearer(owner.token) });
      await verifiedDomain(t.app, owner.token, target, dns, hostname);
      const imported = await importIntoWorkspace(t.app, owner.token, target, renamed);
      assert.equal(imported.json().created, 1, imported.body);
      assert.equal(imported.json().existing, 1, imported.body);
      const links = (await t.app.inject({ url: `/api/v1/workspaces/${target}/links`, headers: bearer(owner.token) })).json().items as Array<{ domain: string; short_url: string; original_url: string }>;
      const branded = links.find((link) => link.original_url.endsWith('/branded'))!;
      assert.equal(branded.domain, hostname);
      assert.ok(branded.short_url.startsWith(`https://${hostname}/br${format}`), branded.short_url);
      const code = branded.short_url.slice(`https://${hostname}/`.length);
      const visit = await t.app.inject({ url: `/${code}`, headers: { host: hostname } });
      assert.equal(visit.headers.location, `https://example.com/${format}/branded`);
    });
  }
});
