import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KyselyIdentityStore } from '../../src/storage/identity-store.js';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, LATE_TIME, unique } from '../support/contract-fixtures.js';

const ISSUER = 'https://login.example.com/realms/main';

for (const backend of STORE_BACKENDS) {
  describe(`IdentityStore on ${backend.name}`, () => {
    const stores = storesFor(backend);
    const identities = () => new KyselyIdentityStore(stores.database.db);

    test('a linked identity finds its account; another subject or issuer finds none', async () => {
      const { userId } = await createOwner(stores.accounts);
      const subject = unique('sub');
      assert.equal(await identities().linkIdentity(userId, { issuer: ISSUER, subject }, LATE_TIME), 'linked');
      assert.equal(await identities().findUserIdByIdentity({ issuer: ISSUER, subject }), userId);
      assert.equal(await identities().findUserIdByIdentity({ issuer: ISSUER, subject: unique('sub') }), undefined);
      assert.equal(await identities().findUserIdByIdentity({ issuer: 'https://other.example', subject }), undefined);
    });

    test('the unique indexes answer a second link: the identity taken by another account, or the account holding another subject', async () => {
      const first = await createOwner(stores.accounts);
      const second = await createOwner(stores.accounts);
      const subject = unique('sub');
      await identities().linkIdentity(first.userId, { issuer: ISSUER, subject }, LATE_TIME);
      assert.equal(await identities().linkIdentity(second.userId, { issuer: ISSUER, subject }, LATE_TIME), 'subject_taken');
      assert.equal(await identities().linkIdentity(first.userId, { issuer: ISSUER, subject: unique('sub') }, LATE_TIME), 'account_taken');
      // The same account may sign in through another provider too.
      assert.equal(await identities().linkIdentity(first.userId, { issuer: 'https://other.example', subject }, LATE_TIME), 'linked');
      assert.equal(await identities().findUserIdByIdentity({ issuer: ISSUER, subject }), first.userId);
    });

    test('setUserRole changes the global role of that user only', async () => {
      const target = await createOwner(stores.accounts);
      const bystander = await createOwner(stores.accounts);
      await identities().setUserRole(target.userId, 'admin');
      assert.equal((await stores.accounts.findUserById(target.userId))?.role, 'admin');
      assert.equal((await stores.accounts.findUserById(bystander.userId))?.role, 'user');
      await identities().setUserRole(target.userId, 'user');
      assert.equal((await stores.accounts.findUserById(target.userId))?.role, 'user');
    });
  });
}
