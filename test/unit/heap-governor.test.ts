import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHeapGovernor } from '../../src/heap-governor.js';

const MIB = 1024 * 1024;

test('the old generation is held tight above 160 MiB resident, and let go only below 140 MiB', (context) => {
  context.mock.timers.enable({ apis: ['setInterval'] });
  let rss = 120 * MIB;
  const governor = startHeapGovernor(() => rss);
  context.after(() => governor.stop());
  const states: boolean[] = [];
  for (const mib of [120, 161, 150, 141, 139, 150, 170]) {
    rss = mib * MIB;
    context.mock.timers.tick(1_000);
    states.push(governor.tight);
  }
  assert.deepEqual(states, [false, true, true, true, false, false, true]);
});
