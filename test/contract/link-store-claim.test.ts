import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME, unique } from '../support/contract-fixtures.js';

for (const backend of STORE_BACKENDS) {
  describe(`LinkStore claims on ${backend.name}`, () => {
    const stores = storesFor(backend);

    const temporaryLink = (claimTokenHash: string | null = unique('hash')) =>
      insertedLink(stores.links, { linkType: 'TEMPORARY', claimTokenHash, expiresAt: LATE_TIME + 8 });

    test('a claimable link is found with its token hash, which the Link itself never carries', async () => {
      const link = await temporaryLink('hash-of-the-token');
      const claimable = await stores.links.findClaimableLink(link.domain, link.code);
      assert.deepEqual(claimable, { link, claimTokenHash: 'hash-of-the-token' });
      assert.equal('claimTokenHash' in link, false);
    });

    test('a permanent link, a temporary one without a token and a missing code are not claimable', async () => {
      const permanent = await insertedLink(stores.links, { claimTokenHash: 'some-hash' });
      const tokenless = await temporaryLink(null);
      assert.equal(await stores.links.findClaimableLink(permanent.domain, permanent.code), undefined);
      assert.equal(await stores.links.findClaimableLink(tokenless.domain, tokenless.code), undefined);
      assert.equal(await stores.links.findClaimableLink('default', 'no-such-code'), undefined);
      const owner = await createOwner(stores.accounts);
      const claim = { ownerId: owner.userId, workspaceId: owner.workspaceId, now: LATE_TIME };
      assert.equal(await stores.links.claimTemporaryLink(permanent.id, 'some-hash', claim), undefined);
      assert.deepEqual(await stores.links.findLinkById(permanent.id), permanent);
    });

    test('a claim makes the link permanent, owned, without expiry or token', async () => {
      const owner = await createOwner(stores.accounts);
      const link = await temporaryLink('the-hash');
      await stores.database.db.updateTable('links').set({ status: 'EXPIRED' }).where('id', '=', link.id).execute();
      const claimed = await stores.links.claimTemporaryLink(link.id, 'the-hash', { ownerId: owner.userId, workspaceId: owner.workspaceId, now: LATE_TIME + 9 });
      const expected = {
        ...link, linkType: 'PERMANENT', status: 'ACTIVE', ownerId: owner.userId, workspaceId: owner.workspaceId,
        expiresAt: null, updatedAt: LATE_TIME + 9,
      };
      assert.deepEqual(claimed, { ok: true, link: expected });
      assert.deepEqual(await stores.links.findLinkById(link.id), expected);
      assert.equal(await stores.links.findClaimableLink(link.domain, link.code), undefined);
    });

    test('a token claims at most once, and a wrong token never', async () => {
      const [a, b] = [await createOwner(stores.accounts), await createOwner(stores.accounts)];
      const link = await temporaryLink('right-hash');
      const wrong = await stores.links.claimTemporaryLink(link.id, 'wrong-hash', { ownerId: a.userId, workspaceId: a.workspaceId, now: LATE_TIME });
      assert.equal(wrong, undefined);
      assert.ok((await stores.links.claimTemporaryLink(link.id, 'right-hash', { ownerId: a.userId, workspaceId: a.workspaceId, now: LATE_TIME }))?.ok);
      const replay = await stores.links.claimTemporaryLink(link.id, 'right-hash', { ownerId: b.userId, workspaceId: b.workspaceId, now: LATE_TIME });
      assert.equal(replay, undefined);
      assert.equal((await stores.links.findLinkById(link.id))?.ownerId, a.userId);
    });

    test('of many simultaneous claims with the same token exactly one succeeds', async () => {
      const owners = await Promise.all(Array.from({ length: 8 }, () => createOwner(stores.accounts)));
      const link = await temporaryLink('raced-hash');
      const results = await Promise.all(owners.map((owner) =>
        stores.links.claimTemporaryLink(link.id, 'raced-hash', { ownerId: owner.userId, workspaceId: owner.workspaceId, now: LATE_TIME })));
      const winners = results.filter((result) => result?.ok);
      assert.equal(winners.length, 1);
      assert.equal((await stores.links.findLinkById(link.id))?.ownerId, winners[0]!.ok && winners[0]!.link.ownerId);
    });

    test('a claim into a workspace that already holds the URL is a normalized_url conflict and changes nothing', async () => {
      const owner = await createOwner(stores.accounts);
      const link = await temporaryLink('hash-x');
      await insertedLink(stores.links, { originalUrl: link.originalUrl, workspaceId: owner.workspaceId, ownerId: owner.userId });
      const result = await stores.links.claimTemporaryLink(link.id, 'hash-x', { ownerId: owner.userId, workspaceId: owner.workspaceId, now: LATE_TIME });
      assert.deepEqual(result, { ok: false, conflict: 'normalized_url' });
      assert.deepEqual(await stores.links.findClaimableLink(link.domain, link.code), { link, claimTokenHash: 'hash-x' });
    });
  });
}
