import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { LinkforgeError } from '../../src/core/errors.js';
import { TokenService } from '../../src/accounts/token-service.js';
import { TestClock } from '../support/test-clock.js';

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
const DAY_MS = 24 * 3_600_000;
const key = new TextEncoder().encode(SECRET);

function setup() {
  const clock = new TestClock();
  return { clock, tokens: new TokenService(SECRET, DAY_MS, clock), nowSeconds: () => Math.floor(clock.now() / 1000) };
}

async function rejects(tokens: TokenService, token: string) {
  await assert.rejects(tokens.verify(token), (error) => error instanceof LinkforgeError && error.code === 'authentication_required' && error.status === 401);
}

describe('TokenService', () => {
  test('a token it issued verifies to the user id until it expires, by the app clock', async () => {
    const { clock, tokens } = setup();
    const token = await tokens.issue(42, 0);
    assert.equal((await tokens.verify(token)).userId, 42);
    clock.advance(DAY_MS - 1000);
    assert.equal((await tokens.verify(token)).userId, 42);
    clock.advance(1000);
    await rejects(tokens, token);
  });

  test('a token verified once skips the signature check at its next uses, but never its expiry', async () => {
    const { clock, tokens } = setup();
    const token = await tokens.issue(42, 0);
    for (let use = 0; use < 3; use++) assert.equal((await tokens.verify(token)).userId, 42);
    assert.equal(tokens.signaturesChecked, 1, 'one HMAC for three uses');
    clock.advance(DAY_MS);
    await rejects(tokens, token);
    await rejects(tokens, token);
    assert.equal(tokens.signaturesChecked, 2, 'an expired token is forgotten and checked afresh');
  });

  test('a remembered token is refused when the clock goes back before its iat', async () => {
    const { clock, tokens } = setup();
    const token = await tokens.issue(5, 0);
    assert.equal((await tokens.verify(token)).userId, 5);
    clock.advance(-5_000);
    await rejects(tokens, token);
  });

  test('refuses tokens whose claims break the policy even when correctly signed', async () => {
    const { tokens, nowSeconds } = setup();
    const now = nowSeconds();
    const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    await rejects(tokens, await sign({ sub: '1', iat: now }));  // no exp
    await rejects(tokens, await sign({ sub: '1', exp: now + 60 }));  // no iat
    await rejects(tokens, await sign({ iat: now, exp: now + 60 }));  // no sub
    await rejects(tokens, await sign({ sub: '1', iat: now, exp: now + 10 * 365 * 86_400 }));  // far-future exp
    await rejects(tokens, await sign({ sub: '1', iat: now + 3600, exp: now + 7200 }));  // issued in the future
    await rejects(tokens, await sign({ sub: '1', iat: now - 2 * 86_400, exp: now + 60 }));  // older than the lifetime
    for (const sub of ['abc', '1.5', '-1', '0', '01', '99999999999999999999']) {
      await rejects(tokens, await sign({ sub, iat: now, exp: now + 60 }));
    }
    assert.deepEqual(await tokens.verify(await sign({ sub: '7', iat: now, exp: now + 60 })), { userId: 7, sessionEpoch: 0, issuedAt: now, expiresAt: now + 60 }, 'the same shape with good claims passes');
  });

  test('a token carries the session counter it was issued under; one without the claim counts as 0, a malformed one is refused', async () => {
    const { tokens, nowSeconds } = setup();
    assert.equal((await tokens.verify(await tokens.issue(3, 12))).sessionEpoch, 12);
    const now = nowSeconds();
    const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
    for (const sep of [-1, 1.5, '2', 'x', null, 2 ** 53]) await rejects(tokens, await sign({ sub: '1', iat: now, exp: now + 60, sep }));
  });

  test('the CSRF token is a function of the session token: it matches only its own', async () => {
    const { tokens, clock } = setup();
    const first = await tokens.issue(1, 0);
    clock.advance(1000);
    const second = await tokens.issue(1, 0);
    const csrf = tokens.csrfTokenFor(first);
    assert.equal(tokens.csrfTokenFor(first), csrf);
    assert.equal(tokens.isCsrfTokenFor(first, csrf), true);
    assert.equal(tokens.isCsrfTokenFor(second, csrf), false);
    assert.equal(tokens.isCsrfTokenFor(first, ''), false);
    assert.equal(tokens.isCsrfTokenFor(first, `${csrf}x`), false);
    assert.equal(new TokenService('another-secret-that-is-long-enough-987654321', DAY_MS, clock).isCsrfTokenFor(first, csrf), false);
  });

  test('refuses malformed and oversized tokens without throwing anything but 401', async () => {
    const { tokens } = setup();
    const good = await tokens.issue(1, 0);
    for (const bad of ['', 'abc', 'a.b', `${good}.`, `${good}=`, `${good} `, good.replace('.', '=.'), 'é.é.é', `${good}${'A'.repeat(10_000)}`]) {
      await rejects(tokens, bad);
    }
  });

  test('a token from another secret is refused', async () => {
    const { tokens, clock } = setup();
    const other = new TokenService('another-secret-that-is-long-enough-987654321', DAY_MS, clock);
    await rejects(tokens, await other.issue(1, 0));
  });
});
