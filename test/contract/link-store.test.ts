import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME, newLink } from '../support/contract-fixtures.js';
import { KyselyLinkStore } from '../../src/storage/link-store.js';
import { countingQueryBuilds } from '../support/query-builds.js';

for (const backend of STORE_BACKENDS) {
  describe(`LinkStore on ${backend.name}`, () => {
    const stores = storesFor(backend);

    test('an inserted link comes back whole, every number a JS number, times above 2^32 exact', async () => {
      const owner = await createOwner(stores.accounts);
      const input = newLink({ workspaceId: owner.workspaceId, ownerId: owner.userId, expiresAt: LATE_TIME + 1 });
      const result = await stores.links.insertLink(input);
      assert.ok(result.ok);
      const expected = {
        id: result.link.id, domain: input.domain, code: input.code, originalUrl: input.originalUrl,
        normalizedUrl: input.normalizedUrl, linkType: 'PERMANENT', status: 'ACTIVE',
        workspaceId: owner.workspaceId, ownerId: owner.userId, createdAt: LATE_TIME, updatedAt: LATE_TIME,
        expiresAt: LATE_TIME + 1, deletedAt: null, redirectCount: 0, avgRedirectMs: 0, humanCount: 0,
        destinationStatus: null, lastCheckedAt: null, disabledAt: null, disabledReason: null, redirectStatus: null,
        options: null, passwordHash: null, maxClicks: null, clicksLeft: null,
      };
      assert.deepEqual(result.link, expected);
      assert.equal(typeof result.link.id, 'number');
      assert.deepEqual(await stores.links.findLinkById(result.link.id), expected);
      assert.deepEqual(await stores.links.findLinkByCode(input.domain, input.code), expected);
      assert.deepEqual(await stores.links.findLinkByWorkspaceUrl(owner.workspaceId, input.normalizedUrl), expected);
    });

    test('insertLink runs the INSERT compiled once: no query is built per create', async () => {
      const { plugin, built } = countingQueryBuilds();
      const links = new KyselyLinkStore(stores.database.db.withPlugin(plugin), stores.database.embedded);
      const builtByConstructor = built();
      const owner = await createOwner(stores.accounts);
      for (let i = 0; i < 3; i++) {
        const result = await links.insertLink(newLink({ workspaceId: owner.workspaceId, ownerId: owner.userId }));
        assert.ok(result.ok);
        assert.deepEqual(await stores.links.findLinkById(result.link.id), result.link);
      }
      assert.equal(built(), builtByConstructor);
    });

    test('counters stored beyond 2^32 come back as exact JS numbers', async () => {
      const link = await insertedLink(stores.links);
      const big = 2 ** 40 + 7;
      await stores.database.db.updateTable('links').set({ redirect_count: big, human_count: big - 1, last_checked_at: big + 1 }).where('id', '=', link.id).execute();
      const found = await stores.links.findLinkById(link.id);
      assert.equal(found?.redirectCount, big);
      assert.equal(found?.humanCount, big - 1);
      assert.equal(found?.lastCheckedAt, big + 1);
    });

    test('finders answer undefined for what does not exist', async () => {
      const owner = await createOwner(stores.accounts);
      assert.equal(await stores.links.findLinkById(987_654_321), undefined);
      assert.equal(await stores.links.findLinkByCode('default', 'no-such-code'), undefined);
      assert.equal(await stores.links.findLinkByWorkspaceUrl(owner.workspaceId, 'https://example.com/none'), undefined);
      assert.equal(await stores.links.findRedirectTarget('default', 'no-such-code'), undefined);
    });

    test('a key holding U+0000, which no backend can store, finds nothing instead of failing', async () => {
      const owner = await createOwner(stores.accounts);
      const link = await insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
      const code = `${link.code}\u0000`;
      assert.equal(await stores.links.findLinkByCode(link.domain, code), undefined);
      assert.equal(await stores.links.findRedirectTarget(link.domain, code), undefined);
      assert.equal(await stores.links.findClaimableLink(link.domain, code), undefined);
      assert.deepEqual(await stores.links.listLinks({ workspaceIds: [owner.workspaceId], search: code, limit: 10, now: LATE_TIME }), []);
    });

    test('a taken (domain, code) is reported as a code conflict; the same code on another domain is free', async () => {
      const first = await insertedLink(stores.links);
      assert.deepEqual(await stores.links.insertLink(newLink({ code: first.code })), { ok: false, conflict: 'code' });
      const elsewhere = await stores.links.insertLink(newLink({ code: first.code, domain: 'other.example' }));
      assert.ok(elsewhere.ok);
      assert.equal(elsewhere.link.domain, 'other.example');
    });

    test('a workspace holds one link per normalized URL; anonymous links and other workspaces may repeat it', async () => {
      const [a, b] = [await createOwner(stores.accounts), await createOwner(stores.accounts)];
      const url = 'https://example.com/shared-target';
      await insertedLink(stores.links, { originalUrl: url, workspaceId: a.workspaceId, ownerId: a.userId });
      const again = await stores.links.insertLink(newLink({ originalUrl: url, workspaceId: a.workspaceId, ownerId: a.userId }));
      assert.deepEqual(again, { ok: false, conflict: 'normalized_url' });
      assert.ok((await stores.links.insertLink(newLink({ originalUrl: url, workspaceId: b.workspaceId, ownerId: b.userId }))).ok);
      assert.ok((await stores.links.insertLink(newLink({ originalUrl: url }))).ok);
      assert.ok((await stores.links.insertLink(newLink({ originalUrl: url }))).ok);
    });

    test('of many simultaneous inserts of one code, or of one URL in one workspace, exactly one is stored', async () => {
      const owner = await createOwner(stores.accounts);
      const code = newLink().code;
      const sameCode = await Promise.all(Array.from({ length: 20 }, () => stores.links.insertLink(newLink({ code }))));
      assert.deepEqual(sameCode.map((r) => r.ok || r.conflict).sort(), [true, ...Array<string>(19).fill('code')].sort());
      const url = newLink().originalUrl;
      const sameUrl = await Promise.all(Array.from({ length: 20 }, () =>
        stores.links.insertLink(newLink({ originalUrl: url, workspaceId: owner.workspaceId, ownerId: owner.userId }))));
      assert.deepEqual(sameUrl.map((r) => r.ok || r.conflict).sort(), [true, ...Array<string>(19).fill('normalized_url')].sort());
      const stored = await stores.links.listLinks({ workspaceIds: [owner.workspaceId], limit: 100, now: LATE_TIME });
      assert.deepEqual(stored.map((link) => link.originalUrl), [url]);
    });

    test('the redirect target holds only what a redirect needs', async () => {
      const temporary = await insertedLink(stores.links, { linkType: 'TEMPORARY', expiresAt: LATE_TIME + 5 });
      const permanent = await insertedLink(stores.links);
      assert.deepEqual(await stores.links.findRedirectTarget(temporary.domain, temporary.code), {
        url: temporary.originalUrl, expiresAt: LATE_TIME + 5, status: 'ACTIVE', linkId: temporary.id, permanent: false,
      });
      assert.deepEqual(await stores.links.findRedirectTarget(permanent.domain, permanent.code), {
        url: permanent.originalUrl, expiresAt: null, status: 'ACTIVE', linkId: permanent.id, permanent: true,
      });
    });

    test('options, a password and a click limit reach the redirect target as its extras, and leave it plain once removed', async () => {
      const options = { fallbackUrl: 'https://example.com/later', confirmBeforeRedirect: true as const, variants: [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 3 }] };
      const link = await insertedLink(stores.links, { options, passwordHash: '$2b$10$hash', maxClicks: 5 });
      assert.deepEqual([link.options, link.passwordHash, link.maxClicks, link.clicksLeft], [options, '$2b$10$hash', 5, 5]);
      assert.deepEqual(await stores.links.findRedirectTarget(link.domain, link.code), {
        url: link.originalUrl, expiresAt: null, status: 'ACTIVE', linkId: link.id, permanent: true,
        extras: { options, passwordHash: '$2b$10$hash', maxClicks: 5 },
      });
      const limited = await stores.links.updateLink(link.id, { maxClicks: 2, options: null, updatedAt: LATE_TIME + 1 });
      assert.deepEqual([limited?.ok && limited.link.maxClicks, limited?.ok && limited.link.clicksLeft, limited?.ok && limited.link.options], [2, 2, null]);
      await stores.links.updateLink(link.id, { maxClicks: null, passwordHash: null, updatedAt: LATE_TIME + 2 });
      assert.deepEqual(await stores.links.findRedirectTarget(link.domain, link.code), {
        url: link.originalUrl, expiresAt: null, status: 'ACTIVE', linkId: link.id, permanent: true,
      });
    });

    test('updateLink changes only the given fields, and answers undefined for a missing row', async () => {
      const link = await insertedLink(stores.links, { expiresAt: LATE_TIME + 10 });
      const updated = await stores.links.updateLink(link.id, { originalUrl: 'https://example.com/new', normalizedUrl: 'https://example.com/new', updatedAt: LATE_TIME + 1 });
      assert.deepEqual(updated, { ok: true, link: { ...link, originalUrl: 'https://example.com/new', normalizedUrl: 'https://example.com/new', updatedAt: LATE_TIME + 1 } });
      const cleared = await stores.links.updateLink(link.id, { expiresAt: null, updatedAt: LATE_TIME + 2 });
      assert.ok(cleared?.ok);
      assert.equal(cleared.link.expiresAt, null);
      assert.equal(cleared.link.originalUrl, 'https://example.com/new');
      assert.equal(await stores.links.updateLink(987_654_321, { updatedAt: LATE_TIME }), undefined);
    });

    test('updateLink reports a URL taken in the workspace as a normalized_url conflict and changes nothing', async () => {
      const owner = await createOwner(stores.accounts);
      const taken = await insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
      const link = await insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
      const result = await stores.links.updateLink(link.id, { originalUrl: taken.originalUrl, normalizedUrl: taken.normalizedUrl, updatedAt: LATE_TIME + 1 });
      assert.deepEqual(result, { ok: false, conflict: 'normalized_url' });
      assert.deepEqual(await stores.links.findLinkById(link.id), link);
    });

    test('a new expiry revives a link the reaper marked EXPIRED; a DELETED link stays DELETED', async () => {
      const expired = await insertedLink(stores.links, { expiresAt: 1_000 });
      await stores.database.db.updateTable('links').set({ status: 'EXPIRED' }).where('id', '=', expired.id).execute();
      const revived = await stores.links.updateLink(expired.id, { expiresAt: LATE_TIME + 100, updatedAt: LATE_TIME + 1 });
      assert.ok(revived?.ok);
      assert.equal(revived.link.status, 'ACTIVE');
      assert.equal(revived.link.expiresAt, LATE_TIME + 100);

      const deleted = await insertedLink(stores.links, { expiresAt: 1_000 });
      await stores.links.markLinkDeleted(deleted.id, LATE_TIME);
      const stillDeleted = await stores.links.updateLink(deleted.id, { expiresAt: LATE_TIME + 100, updatedAt: LATE_TIME + 1 });
      assert.equal(stillDeleted?.ok && stillDeleted.link.status, 'DELETED');

      const renamed = await insertedLink(stores.links, { expiresAt: 1_000 });
      await stores.database.db.updateTable('links').set({ status: 'EXPIRED' }).where('id', '=', renamed.id).execute();
      const urlOnly = await stores.links.updateLink(renamed.id, { originalUrl: 'https://example.com/x', normalizedUrl: 'https://example.com/x', updatedAt: LATE_TIME + 1 });
      assert.equal(urlOnly?.ok && urlOnly.link.status, 'EXPIRED', 'only a new expiry revives');
    });

    test('soft delete marks once; restore brings a DELETED link back once', async () => {
      const link = await insertedLink(stores.links);
      const deleted = await stores.links.markLinkDeleted(link.id, LATE_TIME + 3);
      assert.deepEqual(deleted, { ...link, status: 'DELETED', deletedAt: LATE_TIME + 3, updatedAt: LATE_TIME + 3 });
      assert.equal(await stores.links.markLinkDeleted(link.id, LATE_TIME + 4), undefined, 'already DELETED');
      assert.equal(await stores.links.markLinkDeleted(987_654_321, LATE_TIME), undefined);

      const restored = await stores.links.restoreDeletedLink(link.id, LATE_TIME + 5);
      assert.deepEqual(restored, { ...link, status: 'ACTIVE', deletedAt: null, updatedAt: LATE_TIME + 5 });
      assert.equal(await stores.links.restoreDeletedLink(link.id, LATE_TIME + 6), undefined, 'not DELETED any more');
      assert.equal(await stores.links.restoreDeletedLink(987_654_321, LATE_TIME), undefined);
    });

    test('ping answers while the database is there', async () => {
      await stores.links.ping();
    });
  });
}
