import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { createOwner, LATE_TIME, unique } from '../support/contract-fixtures.js';
import { KyselyAccountStore } from '../../src/storage/account-store.js';
import { countingQueryBuilds } from '../support/query-builds.js';

for (const backend of STORE_BACKENDS) {
  describe(`AccountStore on ${backend.name}`, () => {
    const stores = storesFor(backend);

    test('createUser makes the user, their personal workspace and their owner membership', async () => {
      const email = `${unique('new')}@example.test`;
      const result = await stores.accounts.createUser({ email, passwordHash: 'hash!', role: 'admin', createdAt: LATE_TIME }, 'My links');
      assert.ok(result.ok);
      const { user, personalWorkspaceId } = result;
      assert.deepEqual(user, { id: user.id, email, role: 'admin', createdAt: LATE_TIME, disabledAt: null });
      assert.equal(typeof user.id, 'number');
      assert.equal(typeof personalWorkspaceId, 'number');
      assert.deepEqual(await stores.accounts.findUserById(user.id), { ...user, sessionEpoch: 0 });
      assert.deepEqual(await stores.accounts.findUserByEmail(email), { ...user, sessionEpoch: 0, passwordHash: 'hash!' });
      assert.equal(await stores.accounts.findPersonalWorkspaceId(user.id), personalWorkspaceId);
      assert.deepEqual(await stores.accounts.listMemberships(user.id), [
        { id: personalWorkspaceId, name: 'My links', isPersonal: true, createdAt: LATE_TIME, role: 'owner' },
      ]);
    });

    test('the reads of an authenticated request (user, personal workspace, membership) build no query per call', async () => {
      const owner = await createOwner(stores.accounts);
      const { plugin, built } = countingQueryBuilds();
      const accounts = new KyselyAccountStore(stores.database.db.withPlugin(plugin));
      const builtByConstructor = built();
      for (let i = 0; i < 2; i++) {
        assert.deepEqual(await accounts.findUserById(owner.userId), await stores.accounts.findUserById(owner.userId));
        assert.equal(await accounts.findPersonalWorkspaceId(owner.userId), owner.workspaceId);
        assert.deepEqual(await accounts.findMembership(owner.workspaceId, owner.userId), await stores.accounts.findMembership(owner.workspaceId, owner.userId));
        assert.equal((await accounts.findMembership(owner.workspaceId, owner.userId))?.role, 'owner');
        assert.equal(await accounts.findMembership(owner.workspaceId, owner.userId + 1_000_000), undefined);
        assert.equal(await accounts.findUserById(owner.userId + 1_000_000), undefined);
      }
      assert.equal(built(), builtByConstructor);
    });

    test('endSessions raises the user\'s session counter by one each time, and no one else\'s', async () => {
      const owner = await createOwner(stores.accounts);
      const other = await createOwner(stores.accounts);
      assert.equal(await stores.accounts.endSessions(owner.userId), true);
      assert.equal(await stores.accounts.endSessions(owner.userId), true);
      assert.equal((await stores.accounts.findUserById(owner.userId))?.sessionEpoch, 2);
      assert.equal((await stores.accounts.findUserById(other.userId))?.sessionEpoch, 0);
      assert.equal(await stores.accounts.endSessions(987_654_321), false);
    });

    test('a taken e-mail address is an email conflict, and nothing of the second user is left', async () => {
      const owner = await createOwner(stores.accounts);
      const again = await stores.accounts.createUser({ email: owner.email, passwordHash: 'x', role: 'user', createdAt: LATE_TIME }, 'Second');
      assert.deepEqual(again, { ok: false, conflict: 'email' });
      const workspaces = await stores.database.db.selectFrom('workspaces').select('id').where('name', '=', 'Second').execute();
      assert.deepEqual(workspaces, []);
    });

    test('of simultaneous registrations of one address exactly one user is created', async () => {
      const email = `${unique('race')}@example.test`;
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
        stores.accounts.createUser({ email, passwordHash: 'x', role: 'user', createdAt: LATE_TIME }, `Race ${email} ${i}`)));
      const created = results.filter((r) => r.ok);
      assert.equal(created.length, 1);
      assert.equal(results.filter((r) => !r.ok && r.conflict === 'email').length, 9);
      const workspaces = await stores.database.db.selectFrom('workspaces').select('id').where('name', 'like', `Race ${email}%`).execute();
      assert.equal(workspaces.length, 1, 'the losers left no workspace behind');
    });

    test('finders answer undefined for what does not exist', async () => {
      const owner = await createOwner(stores.accounts);
      assert.equal(await stores.accounts.findUserById(987_654_321), undefined);
      assert.equal(await stores.accounts.findUserByEmail('nobody@example.test'), undefined);
      assert.equal(await stores.accounts.findPersonalWorkspaceId(987_654_321), undefined);
      assert.equal(await stores.accounts.findMembership(987_654_321, owner.userId), undefined);
      assert.equal(await stores.accounts.findApiKeyOwner('no-such-hash'), undefined);
      assert.equal(await stores.accounts.findUserByEmail(`${owner.email}\u0000`), undefined, 'PostgreSQL cannot even hold U+0000');
    });

    test('a created workspace is shared, owned by its creator and listed after the personal one', async () => {
      const owner = await createOwner(stores.accounts);
      const team = await stores.accounts.createWorkspace('Team', owner.userId, LATE_TIME + 1);
      assert.deepEqual(team, { id: team.id, name: 'Team', isPersonal: false, createdAt: LATE_TIME + 1, role: 'owner' });
      assert.deepEqual(await stores.accounts.findMembership(team.id, owner.userId), team);
      assert.deepEqual((await stores.accounts.listMemberships(owner.userId)).map((m) => m.id), [owner.workspaceId, team.id]);
      assert.equal(await stores.accounts.findPersonalWorkspaceId(owner.userId), owner.workspaceId);
    });

    test('every user and every workspace are listed by ascending id, workspaces with their owners and member count', async () => {
      const owner = await createOwner(stores.accounts);
      const member = await createOwner(stores.accounts);
      const team = await stores.accounts.createWorkspace('Team', owner.userId, LATE_TIME + 1);
      await stores.accounts.addMember(team.id, member.userId, 'member', LATE_TIME + 2);

      const users = await stores.accounts.listUsers();
      assert.deepEqual(users.map((u) => u.id), [...users.map((u) => u.id)].sort((a, b) => a - b));
      assert.deepEqual(users.filter((u) => u.id === owner.userId || u.id === member.userId).map((u) => u.email), [owner.email, member.email]);
      assert.ok(users.every((u) => !('passwordHash' in u)), 'no password hash leaves the store in a listing');

      const workspaces = await stores.accounts.listWorkspaces();
      assert.deepEqual(workspaces.map((w) => w.id), [...workspaces.map((w) => w.id)].sort((a, b) => a - b));
      assert.deepEqual(workspaces.filter((w) => [owner.workspaceId, team.id].includes(w.id)), [
        { id: owner.workspaceId, name: workspaces.find((w) => w.id === owner.workspaceId)!.name, isPersonal: true, createdAt: LATE_TIME, ownerEmails: [owner.email], memberCount: 1 },
        { id: team.id, name: 'Team', isPersonal: false, createdAt: LATE_TIME + 1, ownerEmails: [owner.email], memberCount: 2 },
      ]);
    });

    test('members are added once and listed by join time with their e-mail addresses', async () => {
      const owner = await createOwner(stores.accounts);
      const member = await createOwner(stores.accounts);
      assert.equal(await stores.accounts.addMember(owner.workspaceId, member.userId, 'member', LATE_TIME + 5), true);
      assert.equal(await stores.accounts.addMember(owner.workspaceId, member.userId, 'admin', LATE_TIME + 6), false);
      assert.deepEqual(await stores.accounts.listMembers(owner.workspaceId), [
        { workspaceId: owner.workspaceId, userId: owner.userId, email: owner.email, role: 'owner', createdAt: LATE_TIME },
        { workspaceId: owner.workspaceId, userId: member.userId, email: member.email, role: 'member', createdAt: LATE_TIME + 5 },
      ]);
      assert.equal((await stores.accounts.findMembership(owner.workspaceId, member.userId))?.role, 'member');
    });

    test('removing a member: removed, not_member, and never the last owner', async () => {
      const owner = await createOwner(stores.accounts);
      const other = await createOwner(stores.accounts);
      await stores.accounts.addMember(owner.workspaceId, other.userId, 'member', LATE_TIME);
      assert.equal(await stores.accounts.removeMember(owner.workspaceId, owner.userId), 'last_owner');
      assert.equal(await stores.accounts.removeMember(owner.workspaceId, other.userId), 'removed');
      assert.equal(await stores.accounts.removeMember(owner.workspaceId, other.userId), 'not_member');
      assert.equal(await stores.accounts.findMembership(owner.workspaceId, other.userId), undefined);
    });

    test('two owners removing each other at once leave one owner', async () => {
      // Ten workspaces at once, so that on a server the two transactions of a pair really overlap.
      const pairs = await Promise.all(Array.from({ length: 10 }, async () => {
        const [a, b] = [await createOwner(stores.accounts), await createOwner(stores.accounts)];
        await stores.accounts.addMember(a.workspaceId, b.userId, 'owner', LATE_TIME);
        return { workspaceId: a.workspaceId, owners: [a.userId, b.userId] };
      }));
      const results = await Promise.all(pairs.map(({ workspaceId, owners }) =>
        Promise.all(owners.map((userId) => stores.accounts.removeMember(workspaceId, userId)))));
      for (const [i, { workspaceId }] of pairs.entries()) {
        assert.deepEqual([...results[i]!].sort(), ['last_owner', 'removed']);
        const owners = (await stores.accounts.listMembers(workspaceId)).filter((m) => m.role === 'owner');
        assert.equal(owners.length, 1);
      }
    });

    test('API keys: inserted without their secret, listed, found by hash while the creator is a member, touched, deleted', async () => {
      const owner = await createOwner(stores.accounts);
      const creator = await createOwner(stores.accounts);
      await stores.accounts.addMember(owner.workspaceId, creator.userId, 'admin', LATE_TIME);
      const secretHash = unique('secret');
      const key = await stores.accounts.insertApiKey({
        workspaceId: owner.workspaceId, name: 'CI', prefix: 'lfk_ab12', scopes: ['links:read', 'stats:read'], expiresAt: LATE_TIME + 1000,
        createdAt: LATE_TIME, secretHash, createdBy: creator.userId,
      });
      assert.deepEqual(key, {
        id: key.id, workspaceId: owner.workspaceId, name: 'CI', prefix: 'lfk_ab12', scopes: ['links:read', 'stats:read'], expiresAt: LATE_TIME + 1000,
        createdAt: LATE_TIME, lastUsedAt: null,
      });
      assert.deepEqual(await stores.accounts.listApiKeys(owner.workspaceId), [key]);
      assert.deepEqual(await stores.accounts.findApiKeyOwner(secretHash),
        { keyId: key.id, workspaceId: owner.workspaceId, userId: creator.userId, scopes: ['links:read', 'stats:read'], expiresAt: LATE_TIME + 1000, lastUsedAt: null });

      await stores.accounts.touchApiKey(key.id, LATE_TIME + 77);
      assert.equal((await stores.accounts.findApiKeyOwner(secretHash))?.lastUsedAt, LATE_TIME + 77);
      assert.equal((await stores.accounts.listApiKeys(owner.workspaceId))[0]?.lastUsedAt, LATE_TIME + 77);

      await stores.accounts.removeMember(owner.workspaceId, creator.userId);
      assert.equal(await stores.accounts.findApiKeyOwner(secretHash), undefined, 'its creator left the workspace');

      assert.equal(await stores.accounts.deleteApiKey(creator.workspaceId, key.id), false, 'not in that workspace');
      assert.equal(await stores.accounts.deleteApiKey(owner.workspaceId, key.id), true);
      assert.equal(await stores.accounts.deleteApiKey(owner.workspaceId, key.id), false);
      assert.deepEqual(await stores.accounts.listApiKeys(owner.workspaceId), []);
    });
  });
}
