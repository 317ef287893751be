import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidEmail, normalizeEmail, passwordProblem } from '../../src/accounts/password-rules.js';

const codeOf = (password: string) => passwordProblem(password)?.code;

describe('password rules (bytes, not characters)', () => {
  test('accepts 8 to 72 bytes', () => {
    assert.equal(codeOf('a'.repeat(8)), undefined);
    assert.equal(codeOf('a'.repeat(72)), undefined);
    assert.equal(codeOf('€'.repeat(24)), undefined, '24 × 3 bytes = 72');
  });

  test('refuses fewer than 8 bytes and more than 72, counting UTF-8 bytes', () => {
    assert.equal(codeOf('a'.repeat(7)), 'password_too_short');
    assert.equal(codeOf('a'.repeat(73)), 'password_too_long');
    assert.equal(codeOf('€'.repeat(25)), 'password_too_long', '25 characters but 75 bytes');
    assert.equal(codeOf('😀'.repeat(19)), 'password_too_long', '19 characters × 4 bytes = 76');
  });

  test('the refusal says how long the password is and that nothing is cut', () => {
    const problem = passwordProblem('€'.repeat(25));
    assert.match(problem?.message ?? '', /at most 72 bytes/);
    assert.match(problem?.message ?? '', /it is 75/);
    assert.equal(problem?.status, 400);
  });

  test('refuses a NUL byte and lone surrogates', () => {
    assert.equal(codeOf('abcdefgh\0ij'), 'password_invalid');
    assert.equal(codeOf('abcdefgh\uD800'), 'password_invalid');
    assert.equal(codeOf('abcdefgh😀'), undefined, 'a proper surrogate pair is fine');
  });
});

describe('emails', () => {
  test('are trimmed and lower-cased', () => {
    assert.equal(normalizeEmail('  Alice@Example.COM '), 'alice@example.com');
  });

  test('need one @, a dotted domain and no spaces', () => {
    for (const good of ['a@b.co', 'first.last+tag@sub.example.org']) assert.ok(isValidEmail(good), good);
    for (const bad of ['', 'plain', 'a@b', 'a@@b.co', 'a b@c.de', '@b.co', 'a@.co', 'a@b.', `${'a'.repeat(250)}@b.co`]) {
      assert.ok(!isValidEmail(bad), bad);
    }
  });
});
