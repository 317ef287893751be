import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { UnlockCookie } from '../../src/http/link-unlock-cookie.js';
import { PasswordAttemptLimit } from '../../src/http/password-attempt-limit.js';
import { TestClock } from '../support/test-clock.js';

const KEY = Buffer.alloc(32, 7);
const HASH = `$2b$04$${'a'.repeat(53)}`;
const withCookie = (setCookie: string) => ({ headers: { cookie: `other=1; ${setCookie.split(';')[0]}` } }) as unknown as IncomingMessage;

describe('the unlock cookie of a password link', () => {
  test('is Secure only on an https base URL, and opens its link until it expires', () => {
    const now = Date.UTC(2027, 0, 1);
    const plain = new UnlockCookie({ key: KEY, secure: false });
    const issued = plain.issue('abc', 7, HASH, now);
    assert.equal(issued.includes('; Secure'), false);
    assert.match(new UnlockCookie({ key: KEY, secure: true }).issue('abc', 7, HASH, now), /; HttpOnly; SameSite=Lax; Secure$/);
    assert.equal(plain.isValid(withCookie(issued), 7, HASH, now + 3_599_000), true);
    assert.equal(plain.isValid(withCookie(issued), 7, HASH, now + 3_600_000), false, 'expired');
  });

  test('opens no other link, no other password, and nothing under another key', () => {
    const now = Date.UTC(2027, 0, 1);
    const cookie = new UnlockCookie({ key: KEY, secure: false });
    const issued = withCookie(cookie.issue('abc', 7, HASH, now));
    assert.equal(cookie.isValid(issued, 8, HASH, now), false);
    assert.equal(cookie.isValid(issued, 7, HASH.replace(/a$/, 'b'), now), false);
    assert.equal(new UnlockCookie({ key: Buffer.alloc(32, 8), secure: false }).isValid(issued, 7, HASH, now), false);
    assert.equal(cookie.isValid({ headers: {} } as IncomingMessage, 7, HASH, now), false);
  });
});

describe('wrong passwords per client and link', () => {
  test('attempts sent at once are counted before any is compared; a right one gives its count back; a new minute starts over', () => {
    const clock = new TestClock();
    const limit = new PasswordAttemptLimit(2, clock);
    assert.deepEqual([limit.attempt('1.2.3.4', 1), limit.attempt('1.2.3.4', 1)], [0, 0]);
    assert.ok(limit.attempt('1.2.3.4', 1) >= 1, 'the third, sent before the first two were answered, waits');
    assert.equal(limit.attempt('1.2.3.4', 2), 0, 'another link');
    assert.equal(limit.attempt('5.6.7.8', 1), 0, 'another client');
    limit.succeeded('1.2.3.4', 1);
    assert.equal(limit.attempt('1.2.3.4', 1), 0);
    clock.advance(60_000);
    assert.equal(limit.attempt('1.2.3.4', 1), 0);
  });
});
