import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHeapGovernor } from '../../src/heap-governor.js';

const MIB = 1024 * 1024;

test('the old generation is held tight above 160 MiB resident, from a full collection on, and let go only below 140 MiB', (context) => {
  context.mock.timers.enable({ apis: ['setInterval'] });
  let rss = 120 * MIB;
  let collections = 0;
  const governor = startHeapGovernor(() => rss, () => collections++);
  context.after(() => governor.stop());
  const states: [boolean, number][] = [];
  for (const mib of [120, 161, 150, 141, 139, 150, 170]) {
    rss = mib * MIB;
    context.mock.timers.tick(1_000);
    states.push([governor.tight, collections]);
  }
  assert.deepEqual(states, [[false, 0], [true, 1], [true, 1], [true, 1], [false, 1], [false, 1], [true, 2]], 'a full collection each time it turns tight');
});

test('turning tight collects at once: an object only a WeakRef holds is gone, and the global still has no gc', async () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const watched = new WeakRef({ payload: new Array(1_000).fill(1) });
  await nextTurn();
  startHeapGovernor(() => 120 * MIB).stop();
  assert.notEqual(watched.deref(), undefined, 'nothing collected while loose');
  await nextTurn();
  startHeapGovernor(() => 170 * MIB).stop();
  assert.equal(watched.deref(), undefined);
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
});
