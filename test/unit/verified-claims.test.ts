import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { claimsOf } from '../../src/sso/verified-claims.js';

const ISSUER = 'https://login.example.com';

describe('the claims a single sign-on uses', () => {
  test('userinfo wins over the ID token where both speak; the subject is the ID token\'s', () => {
    const claims = claimsOf(ISSUER, { sub: 'abc', email: 'old@example.com', email_verified: false }, { sub: 'abc', email: 'new@example.com', email_verified: true });
    assert.deepEqual(claims, { issuer: ISSUER, subject: 'abc', email: 'new@example.com', emailVerified: true, groups: [] });
  });

  test('only the boolean true verifies an email', () => {
    for (const value of ['true', 1, undefined, null]) {
      assert.equal(claimsOf(ISSUER, { sub: 'a', email: 'a@example.com', email_verified: value }, {}).emailVerified, false, String(value));
    }
  });

  test('groups may be a list or one name; anything else is no group', () => {
    assert.deepEqual(claimsOf(ISSUER, { sub: 'a' }, { groups: ['ops', 7, 'dev'] }).groups, ['ops', 'dev']);
    assert.deepEqual(claimsOf(ISSUER, { sub: 'a' }, { groups: 'ops' }).groups, ['ops']);
    assert.deepEqual(claimsOf(ISSUER, { sub: 'a', groups: { ops: true } }, {}).groups, []);
  });
});
