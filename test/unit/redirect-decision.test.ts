import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LINK_REDIRECT_STATUSES, type LinkRedirectStatus, type RedirectTarget } from '../../src/core/link.js';
import { decideRedirect } from '../../src/core/redirect-decision.js';

const NOW = 1_800_000_000_000;
const target = (fields: Partial<RedirectTarget> = {}): RedirectTarget => ({
  url: 'https://example.com/', expiresAt: null, status: 'ACTIVE', linkId: 1, permanent: true, ...fields,
});
const PERMANENT: readonly LinkRedirectStatus[] = [301, 308];

describe('decideRedirect with a link\'s own redirect status', () => {
  test('a plain link carries no status of its own: the responder applies the instance\'s rule', () => {
    assert.deepEqual(decideRedirect(target(), NOW), { kind: 'redirect', url: 'https://example.com/', expiring: false });
  });

  test('a link that never expires answers its own status, whatever it is', () => {
    fc.assert(fc.property(fc.constantFrom(...LINK_REDIRECT_STATUSES), (own) => {
      const decision = decideRedirect(target({ redirectStatus: own }), NOW);
      assert.equal(decision.kind === 'redirect' && decision.status, own);
    }));
  });

  test('a link that expires never answers a permanent status, and keeps whether the method is kept', () => {
    fc.assert(fc.property(fc.constantFrom(...LINK_REDIRECT_STATUSES), fc.integer({ min: 1, max: 10 ** 10 }), (own, ahead) => {
      const decision = decideRedirect(target({ redirectStatus: own, expiresAt: NOW + ahead }), NOW);
      assert.equal(decision.kind, 'redirect');
      const status = decision.kind === 'redirect' ? decision.status! : 0;
      assert.ok(!PERMANENT.includes(status as LinkRedirectStatus), `${own} answered ${status}`);
      assert.equal(status === 307, own === 307 || own === 308, 'method-keeping stays method-keeping');
    }));
  });

  test('an expired link with a status of its own is gone, as any other', () => {
    assert.deepEqual(decideRedirect(target({ redirectStatus: 308, expiresAt: NOW }), NOW), { kind: 'gone', reason: 'expired' });
  });
});
