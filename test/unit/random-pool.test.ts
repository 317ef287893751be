import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RandomPool, sharedRandomPool } from '../../src/core/random-pool.js';
import { RANDOM_CODE_ALPHABET, randomCode } from '../../src/core/short-code.js';
import { newSecret } from '../../src/core/secret-token.js';

describe('RandomPool', () => {
  test('fills from the operating system once per pool size, and hands every byte out once', () => {
    const pool = new RandomPool(64);
    const draws = Array.from({ length: 32 }, () => Buffer.from(pool.take(8)).toString('hex'));
    assert.equal(pool.refills, 4, '256 bytes from a 64-byte pool: four fills');
    assert.equal(new Set(draws).size, draws.length, 'no draw repeats another');
    assert.equal(pool.take(100).length, 100, 'a draw larger than the pool is served on its own');
  });

  test('random codes and secrets draw from the shared pool, not a system call each', () => {
    const before = sharedRandomPool.refills;
    for (let i = 0; i < 2_000; i++) randomCode(7);
    for (let i = 0; i < 100; i++) newSecret();
    const fills = sharedRandomPool.refills - before;
    assert.ok(fills >= 3 && fills <= 8, `about 17 KB drawn in ${fills} fills of 4 KiB`);
  });

  test('codes from the pool stay uniform over the alphabet (chi-square, 61 degrees of freedom)', () => {
    const counts = new Map<string, number>();
    const codes = 20_000;
    for (let i = 0; i < codes; i++) for (const character of randomCode(7)) counts.set(character, (counts.get(character) ?? 0) + 1);
    const expected = (codes * 7) / RANDOM_CODE_ALPHABET.length;
    const chiSquare = [...RANDOM_CODE_ALPHABET].reduce((sum, character) => sum + ((counts.get(character) ?? 0) - expected) ** 2 / expected, 0);
    assert.equal(counts.size, RANDOM_CODE_ALPHABET.length);
    assert.ok(chiSquare < 120, `chi-square ${chiSquare.toFixed(1)} (p < 0.0001 above 120)`);
  });

  test('secrets are 256 bits, URL-safe and all different', () => {
    const secrets = Array.from({ length: 1_000 }, () => newSecret('lfk_'));
    assert.ok(secrets.every((secret) => /^lfk_[A-Za-z0-9_-]{43}$/.test(secret)));
    assert.equal(new Set(secrets).size, secrets.length);
  });
});
