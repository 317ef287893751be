import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { STORE_BACKENDS } from '../support/store-backends.js';
import { storesFor } from '../support/contract-stores.js';
import { LATE_TIME, unique } from '../support/contract-fixtures.js';

const NOW = LATE_TIME;
const MINUTE = 60_000;

for (const backend of STORE_BACKENDS) {
  describe(`JobLockStore on ${backend.name}`, () => {
    const stores = storesFor(backend);

    test('a free lock is taken and reads back exactly; an unknown lock reads undefined', async () => {
      const name = unique('job');
      assert.equal(await stores.jobLocks.findLock(name), undefined);
      assert.equal(await stores.jobLocks.tryAcquire(name, 'a', NOW, NOW + 14 * MINUTE), true);
      assert.deepEqual(await stores.jobLocks.findLock(name), { name, lockUntil: NOW + 14 * MINUTE, lockedAt: NOW, lockedBy: 'a' });
    });

    test('a held lock is refused to everyone, its holder too, until lock_until; then it is taken over', async () => {
      const name = unique('job');
      await stores.jobLocks.tryAcquire(name, 'a', NOW, NOW + MINUTE);
      assert.equal(await stores.jobLocks.tryAcquire(name, 'b', NOW + MINUTE - 1, NOW + 2 * MINUTE), false);
      assert.equal(await stores.jobLocks.tryAcquire(name, 'a', NOW + MINUTE - 1, NOW + 2 * MINUTE), false);
      assert.deepEqual(await stores.jobLocks.findLock(name), { name, lockUntil: NOW + MINUTE, lockedAt: NOW, lockedBy: 'a' });
      assert.equal(await stores.jobLocks.tryAcquire(name, 'b', NOW + MINUTE, NOW + 3 * MINUTE), true);
      assert.deepEqual(await stores.jobLocks.findLock(name), { name, lockUntil: NOW + 3 * MINUTE, lockedAt: NOW + MINUTE, lockedBy: 'b' });
    });

    test('locks of different names do not touch each other', async () => {
      const [first, second] = [unique('job'), unique('job')];
      assert.equal(await stores.jobLocks.tryAcquire(first, 'a', NOW, NOW + MINUTE), true);
      assert.equal(await stores.jobLocks.tryAcquire(second, 'b', NOW, NOW + MINUTE), true);
      assert.equal((await stores.jobLocks.findLock(first))?.lockedBy, 'a');
    });

    test('release keeps the lock until locked_at + atLeast, or frees it now when that has passed', async () => {
      const name = unique('job');
      await stores.jobLocks.tryAcquire(name, 'a', NOW, NOW + 14 * MINUTE);
      assert.equal(await stores.jobLocks.release(name, 'a', NOW, NOW + MINUTE, 10 * MINUTE), true);
      assert.equal((await stores.jobLocks.findLock(name))?.lockUntil, NOW + 10 * MINUTE);
      assert.equal(await stores.jobLocks.tryAcquire(name, 'b', NOW + 10 * MINUTE - 1, NOW + 30 * MINUTE), false);

      const later = NOW + 10 * MINUTE;
      await stores.jobLocks.tryAcquire(name, 'b', later, later + 14 * MINUTE);
      assert.equal(await stores.jobLocks.release(name, 'b', later, later + 12 * MINUTE, 10 * MINUTE), true);
      assert.equal((await stores.jobLocks.findLock(name))?.lockUntil, later + 12 * MINUTE);
    });

    test('only the hold that took the lock releases it: not another owner, not an older hold of the same owner', async () => {
      const name = unique('job');
      await stores.jobLocks.tryAcquire(name, 'a', NOW, NOW + MINUTE);
      await stores.jobLocks.tryAcquire(name, 'a', NOW + MINUTE, NOW + 2 * MINUTE);
      const held = { name, lockUntil: NOW + 2 * MINUTE, lockedAt: NOW + MINUTE, lockedBy: 'a' };
      assert.equal(await stores.jobLocks.release(name, 'b', NOW + MINUTE, NOW + MINUTE, 0), false);
      assert.equal(await stores.jobLocks.release(name, 'a', NOW, NOW + MINUTE, 0), false);
      assert.equal(await stores.jobLocks.release(unique('job'), 'a', NOW, NOW, 0), false, 'no such lock');
      assert.deepEqual(await stores.jobLocks.findLock(name), held);
    });

    test('of many simultaneous attempts on a free lock, and then on an expired one, exactly one wins', async () => {
      const name = unique('job');
      // All the attempts read "free" before any of them writes, so only the conditional upsert decides.
      const attempts = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        stores.jobLocks.tryAcquire(name, `i${i}`, NOW, NOW + MINUTE)));
      assert.equal(attempts.filter(Boolean).length, 1);
      assert.equal((await stores.jobLocks.findLock(name))?.lockedBy, `i${attempts.indexOf(true)}`);

      const again = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        stores.jobLocks.tryAcquire(name, `j${i}`, NOW + MINUTE, NOW + 2 * MINUTE)));
      assert.equal(again.filter(Boolean).length, 1);
      assert.equal((await stores.jobLocks.findLock(name))?.lockedBy, `j${again.indexOf(true)}`);
    });
  });
}
