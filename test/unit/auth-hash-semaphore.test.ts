import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcrypt';
import { LinkforgeError } from '../../src/core/errors.js';
import { HashSemaphore } from '../../src/accounts/hash-semaphore.js';
import { PasswordHasher } from '../../src/accounts/password-hasher.js';
import { CountingHashing } from '../support/counting-hashing.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('HashSemaphore', () => {
  test('runs at most maxActive tasks at once and queues the rest in order', async () => {
    const semaphore = new HashSemaphore(2, 10);
    const gates = Array.from({ length: 6 }, deferred);
    let running = 0;
    let maxRunning = 0;
    const order: number[] = [];
    const runs = gates.map((gate, i) => semaphore.run(async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      order.push(i);
      await gate.promise;
      running--;
      return i;
    }));
    await new Promise((r) => setImmediate(r));
    assert.equal(running, 2);
    for (const gate of gates) gate.resolve();
    const results = await Promise.all(runs);
    assert.deepEqual(results.map((r) => r?.value), [0, 1, 2, 3, 4, 5]);
    assert.equal(maxRunning, 2);
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
    assert.equal(semaphore.activeCount, 0);
  });

  test('refuses at once when the queue is full, and frees slots after a failing task', async () => {
    const semaphore = new HashSemaphore(1, 1);
    const gate = deferred();
    const first = semaphore.run(() => gate.promise);
    const second = semaphore.run(async () => 'queued');
    assert.equal(await semaphore.run(async () => 'overflow'), undefined);
    gate.resolve();
    await first;
    assert.deepEqual(await second, { value: 'queued' });
    await assert.rejects(semaphore.run(async () => { throw new Error('boom'); }), /boom/);
    assert.deepEqual(await semaphore.run(async () => 'after failure'), { value: 'after failure' });
    assert.equal(semaphore.activeCount, 0);
  });
});

describe('PasswordHasher', () => {
  test('hashes with the configured cost and verifies', async () => {
    const hasher = new PasswordHasher(4);
    const hash = await hasher.hash('a long passphrase');
    assert.equal(bcrypt.getRounds(hash), 4);
    assert.equal(await hasher.verify('a long passphrase', hash), true);
    assert.equal(await hasher.verify('another passphrase', hash), false);
  });

  test('an unknown account still costs one comparison, against a dummy hash of the same cost, and never matches', async () => {
    const hashing = new CountingHashing();
    const hasher = new PasswordHasher(4, { hashing });
    await hasher.prepare();
    assert.equal(hashing.comparisons, 0, 'prepare does not count as a login comparison');
    assert.equal(await hasher.verify('anything at all', undefined), false);
    assert.equal(hashing.comparisons, 1, 'one comparison');
    assert.equal(bcrypt.getRounds(hashing.comparedWith[0]!), 4, 'against a hash of the same cost');
  });

  test('an unknown account\'s comparison takes a slot of the semaphore like any other', async () => {
    const hashing = new CountingHashing();
    const hasher = new PasswordHasher(4, { maxActive: 1, maxQueued: 0, hashing });
    await hasher.prepare();
    hashing.hold();
    const first = hasher.verify('anything at all', undefined);
    while (hashing.running === 0) await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(hasher.verify('anything else', undefined), (error: unknown) => error instanceof LinkforgeError && error.code === 'server_busy');
    hashing.release();
    assert.equal(await first, false);
  });

  test('throws server_busy (503) when the queue is full', async () => {
    const hasher = new PasswordHasher(4, { maxActive: 1, maxQueued: 1 });
    const attempts = Array.from({ length: 6 }, () => hasher.hash('a long passphrase'));
    const results = await Promise.allSettled(attempts);
    const busy = results.filter((r) => r.status === 'rejected');
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 2);
    assert.equal(busy.length, 4);
    for (const r of busy) {
      const reason = (r as PromiseRejectedResult).reason as LinkforgeError;
      assert.ok(reason instanceof LinkforgeError);
      assert.equal(reason.code, 'server_busy');
      assert.equal(reason.status, 503);
    }
  });
});
