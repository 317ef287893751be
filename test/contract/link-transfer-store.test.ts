import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OTHER_VALUE } from '../../src/core/breakdown-folding.js';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import type { ImportableLink, ImportTarget } from '../../src/core/link-transfer-ports.js';
import { KyselyLinkTransferStore } from '../../src/storage/link-transfer-store.js';
import { createOwner, insertedLink, LATE_TIME, unique } from '../support/contract-fixtures.js';
import { storesFor } from '../support/contract-stores.js';
import { STORE_BACKENDS } from '../support/store-backends.js';

function importable(overrides: Partial<ImportableLink> = {}): ImportableLink {
  const url = overrides.originalUrl ?? `https://example.com/${unique('imported')}`;
  return {
    code: unique('i'), originalUrl: url, normalizedUrl: url, status: 'ACTIVE',
    createdAt: LATE_TIME, updatedAt: LATE_TIME + 1, expiresAt: null, deletedAt: null,
    redirectCount: 0, humanCount: 0, botCount: 0, previewCount: 0, avgRedirectMs: 0,
    ...overrides,
  };
}

for (const backend of STORE_BACKENDS) {
  describe(`LinkTransferStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const transfer = () => new KyselyLinkTransferStore(stores.database.db);
    const targetOf = async (): Promise<ImportTarget> => {
      const owner = await createOwner(stores.accounts);
      return { domain: DEFAULT_DOMAIN, workspaceId: owner.workspaceId, ownerId: owner.userId };
    };

    test('imported links keep every field: status, times past 2^32, counters, average latency, redirect status, password hash and options', async () => {
      const target = await targetOf();
      const link = importable({
        status: 'DELETED', deletedAt: LATE_TIME + 7, expiresAt: LATE_TIME + 99, redirectCount: 2 ** 33 + 5,
        humanCount: 3, botCount: 2, previewCount: 1, avgRedirectMs: 0.123456789, redirectStatus: 308,
        passwordHash: `$2b$04$${'a'.repeat(53)}`, options: { confirmBeforeRedirect: true }, maxClicks: null, clicksLeft: null,
      });
      const [outcome] = await transfer().insertImportedLinks(target, [link], { dryRun: false, now: LATE_TIME });
      assert.equal(outcome?.kind, 'created');
      const [exported] = await transfer().listLinksForExport({ domains: [DEFAULT_DOMAIN], workspaceId: target.workspaceId, afterId: 0, limit: 10 });
      const { id, domainKey, ...fields } = exported!;
      assert.equal(domainKey, DEFAULT_DOMAIN);
      assert.equal(id, outcome?.kind === 'created' ? outcome.linkId : -1);
      const { normalizedUrl: _n, ...expected } = link;
      assert.deepEqual(fields, expected);
      const stored = await stores.links.findLinkByCode(DEFAULT_DOMAIN, link.code);
      assert.deepEqual([stored?.ownerId, stored?.linkType, stored?.workspaceId], [target.ownerId, 'PERMANENT', target.workspaceId]);
    });

    test('the same links again are all existing, and no row is added', async () => {
      const target = await targetOf();
      const links = [importable(), importable(), importable()];
      assert.deepEqual((await transfer().insertImportedLinks(target, links, { dryRun: false, now: LATE_TIME })).map((o) => o.kind), ['created', 'created', 'created']);
      assert.deepEqual((await transfer().insertImportedLinks(target, links, { dryRun: false, now: LATE_TIME })).map((o) => o.kind), ['existing', 'existing', 'existing']);
      const rows = await transfer().listLinksForExport({ domains: [DEFAULT_DOMAIN], workspaceId: target.workspaceId, afterId: 0, limit: 10 });
      assert.equal(rows.length, 3);
    });

    test('codes are unique per domain: one code under two domain keys is two links, and the export keeps to the keys asked for', async () => {
      const target = await targetOf();
      const code = importable().code;
      const onDefault = importable({ code });
      const onCustom = { ...importable({ code }), domain: 'x.example.com', domainKey: 'domain-999999' };
      const outcomes = await transfer().insertImportedLinks(target, [onDefault, onCustom], { dryRun: false, now: LATE_TIME });
      assert.deepEqual(outcomes.map((o) => o.kind), ['created', 'created']);
      const again = await transfer().insertImportedLinks(target, [onCustom], { dryRun: false, now: LATE_TIME });
      assert.deepEqual(again.map((o) => o.kind), ['existing']);
      const both = await transfer().listLinksForExport({ domains: [DEFAULT_DOMAIN, 'domain-999999'], workspaceId: target.workspaceId, afterId: 0, limit: 10 });
      assert.deepEqual(both.map((l) => [l.domainKey, l.code]), [[DEFAULT_DOMAIN, code], ['domain-999999', code]]);
      const defaultOnly = await transfer().listLinksForExport({ domains: [DEFAULT_DOMAIN], workspaceId: target.workspaceId, afterId: 0, limit: 10 });
      assert.deepEqual(defaultOnly.map((l) => l.domainKey), [DEFAULT_DOMAIN]);
    });

    test('a code held elsewhere is code_taken; a URL the workspace holds under another code is url_already_shortened', async () => {
      const target = await targetOf();
      const other = await targetOf();
      const held = await insertedLink(stores.links, { workspaceId: other.workspaceId });
      const [first] = await transfer().insertImportedLinks(target, [importable({ originalUrl: 'https://example.com/shared-url', normalizedUrl: 'https://example.com/shared-url', code: unique('mine') })], { dryRun: false, now: LATE_TIME });
      assert.equal(first?.kind, 'created');
      const outcomes = await transfer().insertImportedLinks(target, [
        importable({ code: held.code }),
        importable({ originalUrl: 'https://example.com/shared-url', normalizedUrl: 'https://example.com/shared-url' }),
      ], { dryRun: false, now: LATE_TIME });
      assert.deepEqual(outcomes.map((o) => (o.kind === 'rejected' ? o.reason : o.kind)), ['code_taken', 'url_already_shortened']);
    });

    test('a code given twice in one batch goes in once: the repeat is existing, or taken when its URL differs', async () => {
      const target = await targetOf();
      const link = importable();
      const outcomes = await transfer().insertImportedLinks(target, [link, link, importable({ code: link.code })], { dryRun: false, now: LATE_TIME });
      assert.deepEqual(outcomes.map((o) => (o.kind === 'rejected' ? o.reason : o.kind)), ['created', 'existing', 'code_taken']);
    });

    test('a dry run answers the same outcomes and leaves no link, visit or roll-up behind', async () => {
      const target = await targetOf();
      const visits = [{ visitedAt: LATE_TIME, latencyMs: 1, visitorClass: 'human' as const, referrerHost: null, browser: null, os: null, device: null }];
      const outcomes = await transfer().insertImportedLinks(target, [importable({ visits })], { dryRun: true, now: LATE_TIME });
      assert.equal(outcomes[0]?.kind, 'created');
      assert.deepEqual(await transfer().listLinksForExport({ domains: [DEFAULT_DOMAIN], workspaceId: target.workspaceId, afterId: 0, limit: 10 }), []);
      const id = outcomes[0]?.kind === 'created' ? outcomes[0].linkId : -1;
      const hourly = await stores.database.db.selectFrom('link_clicks_hourly').selectAll().where('link_id', '=', id).execute();
      assert.deepEqual(hourly, []);
    });

    test('visits come back in time order, with their hourly roll-up, for created links only', async () => {
      const target = await targetOf();
      const visit = (minute: number, visitorClass: 'human' | 'bot' | 'preview') => ({
        visitedAt: LATE_TIME + minute * 60_000, latencyMs: minute + 0.5, visitorClass, referrerHost: 'ref.example', browser: 'Firefox', os: 'Linux', device: 'desktop',
        country: minute === 2 ? 'NL' : null, region: minute === 2 ? 'North Holland' : null, city: minute === 2 ? 'Amsterdam' : null,
      });
      const visits = [visit(1, 'human'), visit(2, 'bot'), visit(3, 'preview')];
      const link = importable({ visits });
      const [created] = await transfer().insertImportedLinks(target, [link], { dryRun: false, now: LATE_TIME });
      const id = created?.kind === 'created' ? created.linkId : -1;
      await transfer().insertImportedLinks(target, [link], { dryRun: false, now: LATE_TIME });
      assert.deepEqual((await transfer().listVisitsForExport([id])).get(id), visits, 'the second import added no visit');
      const hourly = await stores.database.db.selectFrom('link_clicks_hourly').select(['visitor_class', 'clicks']).where('link_id', '=', id).orderBy('visitor_class').execute();
      assert.deepEqual(hourly.map((r) => [r.visitor_class, Number(r.clicks)]), [['bot', 1], ['human', 1], ['preview', 1]]);
    });

    test('the export pages by id, keeps to the workspace asked for and leaves anonymous links out', async () => {
      const target = await targetOf();
      await insertedLink(stores.links); // anonymous
      const codes = [importable(), importable(), importable()].map((l) => l.code);
      await transfer().insertImportedLinks(target, codes.map((code) => importable({ code })), { dryRun: false, now: LATE_TIME });
      const firstPage = await transfer().listLinksForExport({ domains: [DEFAULT_DOMAIN], workspaceId: target.workspaceId, afterId: 0, limit: 2 });
      const secondPage = await transfer().listLinksForExport({ domains: [DEFAULT_DOMAIN], workspaceId: target.workspaceId, afterId: firstPage[1]!.id, limit: 2 });
      assert.deepEqual([...firstPage, ...secondPage].map((l) => l.code), codes);
      const everyWorkspace = await transfer().listLinksForExport({ domains: [DEFAULT_DOMAIN], afterId: 0, limit: 10_000 });
      assert.ok(codes.every((code) => everyWorkspace.some((l) => l.code === code)));
      const anonymous = await stores.database.db.selectFrom('links').select('id').where('workspace_id', 'is', null).execute();
      assert.ok(anonymous.length > 0 && anonymous.every((row) => !everyWorkspace.some((l) => l.id === Number(row.id))));
    });

    test('the sole workspace is found only while there is exactly one', async () => {
      await stores.database.db.deleteFrom('links').execute();
      await stores.database.db.deleteFrom('workspaces').execute();
      assert.equal(await transfer().findSoleWorkspaceId(), 'none');
      const only = await targetOf();
      assert.equal(await transfer().findSoleWorkspaceId(), only.workspaceId);
      await targetOf();
      assert.equal(await transfer().findSoleWorkspaceId(), 'several');
    });

    test("imported visits fold past a day's cap as a flush does, and their facts' last use is their latest time, old as it is", async () => {
      const target = await targetOf();
      const visitedAt = Date.parse('2025-05-05T10:00:00Z');
      const day = Date.parse('2025-05-05T00:00:00Z');
      const visits = Array.from({ length: 150 }, (_, i) => ({
        visitedAt: visitedAt + i, latencyMs: 1, visitorClass: 'human' as const, referrerHost: `h${i}.import.example`, browser: 'Firefox', os: 'Linux', device: 'desktop',
      }));
      const [outcome] = await transfer().insertImportedLinks(target, [importable({ visits })], { dryRun: false, now: LATE_TIME });
      const linkId = outcome?.kind === 'created' ? outcome.linkId : -1;
      const { db } = stores.database;
      const referrers = await db.selectFrom('link_breakdown_daily').select(['value', 'clicks'])
        .where('link_id', '=', linkId).where('day_start', '=', day).where('dimension', '=', 'referrer').execute();
      assert.equal(referrers.length, 101);
      assert.equal(referrers.reduce((sum, row) => sum + Number(row.clicks), 0), 150);
      assert.equal(Number(referrers.find((row) => row.value === OTHER_VALUE)?.clicks), 50);
      const facts = await db.selectFrom('visit_facts').select(['referrer_host', 'last_used_at']).where('referrer_host', 'like', '%.import.example').execute();
      assert.equal(facts.length, 100);
      assert.ok(facts.every((row) => Number(row.last_used_at) >= visitedAt && Number(row.last_used_at) < visitedAt + 150));
      const exported = (await transfer().listVisitsForExport([linkId])).get(linkId)!;
      assert.equal(exported.length, 150);
      assert.equal(exported.filter((visit) => visit.referrerHost === OTHER_VALUE).length, 50);
    });
  });
}
