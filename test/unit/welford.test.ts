import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addToMean, mergeIntoMean, type RunningMean } from '../../src/core/welford.js';

const oneByOne = (start: RunningMean, values: readonly number[]) => values.reduce(addToMean, start);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/*
 * Both sides compute the same real number, rounding differently: each floating-point step is off
 * by at most half an ulp (a relative 1.1e-16), and with positive latencies nothing cancels, so n
 * steps drift by at most about n·1.1e-16 relative. Batches of up to 2,000 values stay far below
 * 1e-12; anything past it is a wrong formula, not rounding.
 */
const TOLERANCE = 1e-12;

// Subnormal values (fast-check finds 6.4e-323) carry a few bits at most, so a relative bound means
// nothing there: a femtosecond of absolute difference is always accepted.
const FLOOR_MS = 1e-12;

function assertClose(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) <= Math.max(TOLERANCE * Math.abs(expected), FLOOR_MS), `${actual} vs ${expected}`);
}

const latency = fc.double({ min: 0, max: 10_000, noNaN: true, noDefaultInfinity: true });
const values = fc.array(latency, { maxLength: 2_000 });

describe('merging a batch into a running mean (Welford)', () => {
  test('one merge of a batch equals its values added one by one, from any running mean', () => {
    fc.assert(fc.property(fc.array(latency, { maxLength: 500 }), values, (earlier, batch) => {
      const start = oneByOne({ count: 0, mean: 0 }, earlier);
      const merged = mergeIntoMean(start, batch.length, sum(batch));
      const reference = oneByOne(start, batch);
      assert.equal(merged.count, reference.count);
      assertClose(merged.mean, reference.mean);
    }));
  });

  test('merging several batches in turn equals one by one over all of them', () => {
    fc.assert(fc.property(fc.array(values, { maxLength: 8 }), (batches) => {
      const merged = batches.reduce((running, batch) => mergeIntoMean(running, batch.length, sum(batch)), { count: 0, mean: 0 });
      const reference = oneByOne({ count: 0, mean: 0 }, batches.flat());
      assert.equal(merged.count, reference.count);
      assertClose(merged.mean, reference.mean);
    }));
  });

  test('an empty batch leaves the mean as it is', () => {
    assert.deepEqual(mergeIntoMean({ count: 3, mean: 2.5 }, 0, 0), { count: 3, mean: 2.5 });
  });
});
