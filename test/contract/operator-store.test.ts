import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_DOMAIN } from '../../src/core/link.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, insertedLink, LATE_TIME, unique } from '../support/contract-fixtures.js';

const T = LATE_TIME;

for (const backend of STORE_BACKENDS) {
  describe(`OperatorStore on ${backend.name}`, () => {
    const stores = storesFor(backend);

    test('a link is disabled with its reason, time and operator, and enabled again; its own status is untouched', async () => {
      const owner = await createOwner(stores.accounts);
      const link = await insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
      const disabled = await stores.operator.setLinkDisabled(DEFAULT_DOMAIN, link.code, { reason: 'Phishing', at: T, by: owner.userId });
      assert.deepEqual([disabled?.link.disabledReason, disabled?.link.disabledAt, disabled?.link.status, disabled?.ownerEmail], ['Phishing', T, 'ACTIVE', owner.email]);
      assert.equal(disabled?.workspaceName, 'Personal');
      const target = await stores.links.findRedirectTarget(DEFAULT_DOMAIN, link.code);
      assert.deepEqual([target?.status, target?.disabledReason], ['DISABLED', 'Phishing']);
      const enabled = await stores.operator.setLinkDisabled(DEFAULT_DOMAIN, link.code, null);
      assert.deepEqual([enabled?.link.disabledReason, enabled?.link.disabledAt], [null, null]);
      const live = await stores.links.findRedirectTarget(DEFAULT_DOMAIN, link.code);
      assert.equal(live?.status, 'ACTIVE');
      assert.ok(live && !('disabledReason' in live), 'a live target carries no extra field');
      assert.equal(await stores.operator.setLinkDisabled(DEFAULT_DOMAIN, unique('none'), null), undefined);
      assert.equal(await stores.operator.findLinkForOperator(DEFAULT_DOMAIN, 'nul\u0000code'), undefined);
    });

    test('a user is disabled once (the first time stays) and enabled again; unknown ids are undefined', async () => {
      const owner = await createOwner(stores.accounts);
      assert.equal((await stores.operator.setUserDisabled(owner.userId, T))?.disabledAt, T);
      assert.equal((await stores.operator.setUserDisabled(owner.userId, T + 5))?.disabledAt, T, 'disabling again keeps the first time');
      assert.equal((await stores.accounts.findUserById(owner.userId))?.disabledAt, T);
      assert.equal((await stores.operator.setUserDisabled(owner.userId, null))?.disabledAt, null);
      assert.equal(await stores.operator.setUserDisabled(2 ** 40, T), undefined);
    });

    test('users are searched by a case-insensitive part of the email, newest first, with % and _ taken literally', async () => {
      const tag = unique('Find').toLowerCase();
      const a = await createOwner(stores.accounts);
      const found = [];
      for (const name of [`${tag}_one`, `${tag}-two`]) {
        const result = await stores.accounts.createUser({ email: `${name}@example.test`, passwordHash: 'x', role: 'user', createdAt: T }, 'Personal');
        assert.ok(result.ok);
        found.push(result.user.id);
      }
      assert.deepEqual((await stores.operator.searchUsers({ search: tag.toUpperCase(), limit: 10 })).map((u) => u.id), [found[1], found[0]]);
      assert.deepEqual((await stores.operator.searchUsers({ search: `${tag}_`, limit: 10 })).map((u) => u.id), [found[0]]);
      assert.deepEqual((await stores.operator.searchUsers({ search: tag, beforeId: found[1], limit: 10 })).map((u) => u.id), [found[0]]);
      assert.ok((await stores.operator.searchUsers({ limit: 100 })).some((u) => u.id === a.userId));
    });

    test('the instance counts links by state (a disabled one once, as disabled) and users by role', async () => {
      const before = await stores.operator.countInstance(T);
      const owner = await createOwner(stores.accounts);
      await insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
      await insertedLink(stores.links, { linkType: 'TEMPORARY', expiresAt: T - 1 });
      const abused = await insertedLink(stores.links, { workspaceId: owner.workspaceId, ownerId: owner.userId });
      await stores.operator.setLinkDisabled(DEFAULT_DOMAIN, abused.code, { reason: 'Spam', at: T, by: owner.userId });
      await stores.operator.setUserDisabled(owner.userId, T);
      const after = await stores.operator.countInstance(T);
      assert.deepEqual({
        active: after.links.active - before.links.active, expired: after.links.expired - before.links.expired,
        disabled: after.links.disabled - before.links.disabled, temporary: after.links.temporary - before.links.temporary,
        permanent: after.links.permanent - before.links.permanent, users: after.users - before.users,
        disabledUsers: after.disabledUsers - before.disabledUsers, workspaces: after.workspaces - before.workspaces,
      }, { active: 1, expired: 1, disabled: 1, temporary: 1, permanent: 2, users: 1, disabledUsers: 1, workspaces: 1 });
    });
  });
}
