import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { NOTHING_SERVED, servedCode, servedOfCode } from '../../src/core/served-code.js';
import { extrasVisitOf, type ExtrasTarget } from '../../src/http/link-extras.js';
import { routingStep } from '../../src/http/routing-step.js';
import { classifiedBatch } from '../../src/visits/classified-batch.js';
import { VisitBuffer } from '../../src/visits/visit-buffer.js';

const UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const request = (headers: Record<string, string> = {}) => ({ method: 'GET', headers, socket: {} }) as unknown as IncomingMessage;
const target = (options: ExtrasTarget['extras']['options']): ExtrasTarget => ({
  url: 'https://example.com/link', expiresAt: null, status: 'ACTIVE', linkId: 7, permanent: true, extras: { options },
});

describe('which route or variant served a visit, from the routing step to the batch', () => {
  test('codes: nothing served is 0, and every route and variant of a link has its own byte', () => {
    assert.equal(servedCode('link'), NOTHING_SERVED);
    assert.equal(servedOfCode(NOTHING_SERVED), null);
    const served = [...Array.from({ length: 10 }, (_, i) => `route:${i}` as const), ...Array.from({ length: 10 }, (_, i) => `variant:${i}` as const)];
    const codes = served.map(servedCode);
    assert.equal(new Set(codes).size, 20);
    assert.ok(codes.every((code) => code > 0 && code < 256));
    assert.deepEqual(codes.map(servedOfCode), served);
  });

  test('the routing step notes the route or variant it chose, and nothing when the link\'s own URL goes', () => {
    const step = routingStep({ random: () => 0.9 });
    const options = { routes: [{ device: ['android' as const], url: 'https://example.com/android' }, { device: ['ios' as const], url: 'https://example.com/ios' }] };
    const routed = extrasVisitOf(request({ 'user-agent': IPHONE }), target(options), 0);
    step(routed);
    assert.equal(servedOfCode(routed.served!), 'route:1');
    const unrouted = extrasVisitOf(request({ 'user-agent': UA }), target(options), 0);
    step(unrouted);
    assert.equal(unrouted.served, undefined);
    const split = extrasVisitOf(request(), target({ variants: [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 1 }] }), 0);
    step(split);
    assert.equal(servedOfCode(split.served!), 'variant:1');
  });

  test('the buffer keeps each visit\'s code (0 by default) and the batch makes it a fact of its own', async () => {
    const buffer = new VisitBuffer(100, () => 0);
    buffer.record(1, 1, UA, undefined);
    buffer.record(1, 1, UA, undefined, undefined, servedCode('route:0'));
    buffer.record(1, 1, UA, undefined, undefined, servedCode('variant:1'));
    buffer.record(1, 1, UA, undefined, undefined, servedCode('route:0'));
    const raw = buffer.take();
    assert.deepEqual([...raw.served], [0, 1, servedCode('variant:1'), 1]);
    const batch = await classifiedBatch(raw);
    const facts = Array.from(batch.factsIndex, (index) => batch.facts[index]!);
    assert.deepEqual(facts.map((f) => f.destination ?? null), [null, 'route:0', 'variant:1', 'route:0']);
    assert.equal(batch.facts.length, 3);
    assert.equal(facts[1]!.browser, facts[0]!.browser);
  });
});
