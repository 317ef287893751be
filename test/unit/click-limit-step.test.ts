import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { ClickLimitStore } from '../../src/core/click-limit-ports.js';
import type { RedirectTarget } from '../../src/core/link.js';
import { answerExtras, extrasVisitOf, type ExtrasTarget } from '../../src/http/link-extras.js';
import { clickLimitStep, limitReachedResponse } from '../../src/http/click-limit-step.js';
import { fallbackStep } from '../../src/http/fallback-step.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const PERSON = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** The database's side at the seam: a count of clicks left and the calls made. */
function clicksLeft(left: number): ClickLimitStore & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    consumeClick: async () => { calls.push('consume'); if (left === 0) return undefined; left -= 1; return left; },
    findClicksLeft: async () => { calls.push('find'); return left; },
  };
}

const target = (overrides: Partial<RedirectTarget> = {}, fallbackUrl?: string): ExtrasTarget => ({
  url: 'https://example.com/destination', expiresAt: null, status: 'ACTIVE', linkId: 1, permanent: true,
  extras: { maxClicks: 3, ...(fallbackUrl === undefined ? {} : { options: { fallbackUrl } }) }, ...overrides,
} as ExtrasTarget);

const request = (method: string, userAgent = PERSON) => ({ method, headers: { 'user-agent': userAgent } }) as unknown as IncomingMessage;

async function answer(store: ClickLimitStore, method: string, link: ExtrasTarget, userAgent?: string) {
  return answerExtras([fallbackStep, clickLimitStep(store, limitReachedResponse(undefined))], extrasVisitOf(request(method, userAgent), link, NOW));
}

describe('the fallback and click limit steps', () => {
  test('a POST from a page of the link takes a click and answers 303; used up, it answers 303 to the fallback', async () => {
    const store = clicksLeft(1);
    assert.deepEqual(await answer(store, 'POST', target({}, 'https://example.com/after')), { kind: 'redirect', url: 'https://example.com/destination', status: 303, counted: true });
    assert.deepEqual(await answer(store, 'POST', target({}, 'https://example.com/after')), { kind: 'redirect', url: 'https://example.com/after', status: 303, counted: false });
    assert.deepEqual(store.calls, ['consume', 'consume']);
  });

  test('a disabled link asks nothing of the store and never goes to its fallback', async () => {
    const store = clicksLeft(3);
    const outcome = await answer(store, 'GET', target({ status: 'DISABLED', disabledReason: 'Phishing' }, 'https://example.com/after'));
    assert.deepEqual(outcome, { kind: 'plain', decision: { kind: 'disabled', reason: 'Phishing' } });
    assert.deepEqual(store.calls, []);
  });

  test('an expired link goes to its fallback, uncounted, without asking the store', async () => {
    const store = clicksLeft(3);
    const outcome = await answer(store, 'GET', target({ expiresAt: NOW - 1 }, 'https://example.com/after'));
    assert.deepEqual(outcome, { kind: 'redirect', url: 'https://example.com/after', status: 302, counted: false });
    assert.deepEqual(store.calls, []);
  });

  test('a preview agent only reads the clicks left; with none left it gets the used-up page', async () => {
    const store = clicksLeft(0);
    const outcome = await answer(store, 'GET', target(), 'facebookexternalhit/1.1');
    assert.equal(outcome.kind, 'page');
    assert.equal(outcome.kind === 'page' && JSON.parse(outcome.page.json.toString()).reason, 'limit_reached');
    assert.deepEqual(store.calls, ['find']);
  });
});
