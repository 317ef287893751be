import { createHash, timingSafeEqual } from 'node:crypto';
import { sharedRandomPool } from './random-pool.js';

/** A fresh 256-bit secret, URL-safe, optionally prefixed (`lfk_` for API keys). */
export function newSecret(prefix = ''): string {
  return prefix + sharedRandomPool.take(32).toString('base64url');
}

/** Secrets are stored only as SHA-256 hashes: they are random, so a slow hash adds nothing. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
