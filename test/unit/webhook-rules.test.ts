import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config.js';
import { eventBits, eventsOfBits, newWebhookSecret, signWebhook } from '../../src/core/webhook-events.js';
import { nextAttemptAt } from '../../src/core/webhook-retry.js';
import { webhookBody } from '../../src/core/webhook-payload.js';
import { shortUrls } from '../../src/core/short-urls.js';

const HOUR = 3_600_000;

describe('webhook rules', () => {
  test('the retry schedule: the n-th delay after the n-th failure, the last one repeating, until the event is too old', () => {
    const delays = [5_000, 30_000, 120_000];
    assert.equal(nextAttemptAt(1, 0, 1_000, delays, 24 * HOUR), 6_000);
    assert.equal(nextAttemptAt(2, 0, 1_000, delays, 24 * HOUR), 31_000);
    assert.equal(nextAttemptAt(3, 0, 1_000, delays, 24 * HOUR), 121_000);
    assert.equal(nextAttemptAt(9, 0, 1_000, delays, 24 * HOUR), 121_000);
    assert.equal(nextAttemptAt(9, 0, 24 * HOUR - 120_000, delays, 24 * HOUR), 24 * HOUR);
    assert.equal(nextAttemptAt(9, 0, 24 * HOUR - 119_999, delays, 24 * HOUR), undefined);
  });

  test('a signature made here verifies with the standardwebhooks package, and fails for another body', () => {
    const secret = newWebhookSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"type":"link.created"}';
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, 'msg_1', timestamp, body) };
    assert.deepEqual(new Webhook(secret).verify(body, headers), { type: 'link.created' });
    assert.throws(() => new Webhook(secret).verify('{"type":"link.deleted"}', headers));
  });

  test('events round-trip through their bits', () => {
    assert.deepEqual(eventsOfBits(eventBits(['link.clicked', 'link.created'])), ['link.created', 'link.clicked']);
  });

  test('WEBHOOK_RETRY_DELAYS is a list of durations; anything else is a start-up problem', () => {
    assert.deepEqual(loadConfig({ WEBHOOK_RETRY_DELAYS: '1s, 2m,3h' }).webhooks.retryDelaysMs, [1_000, 120_000, 3 * HOUR]);
    assert.deepEqual(loadConfig({}).webhooks.retryDelaysMs, [5_000, 30_000, 120_000, 600_000, 1_800_000, HOUR]);
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_DELAYS: '5s,soon' }), /WEBHOOK_RETRY_DELAYS must be durations/);
  });

  test('a link on a custom domain is sent with its own short address and hostname; a default one with BASE_URL\'s', () => {
    const urls = shortUrls('https://sho.rt', (key) => (key === 'domain-7' ? 'go.example.com' : undefined));
    const row = (domain: string) => JSON.stringify({
      id: 1, domain, code: 'abc', original_url: 'https://example.com/', normalized_url: 'https://example.com/', link_type: 'PERMANENT', status: 'ACTIVE',
      workspace_id: 2, created_at: 0, updated_at: 0, expires_at: null, deleted_at: null, redirect_status: null, max_clicks: null, clicks_left: null,
    });
    const dataOf = (domain: string) => (JSON.parse(webhookBody('link.created', 0, row(domain), urls)) as { data: { shortUrl: string; domain: string } }).data;
    assert.deepEqual([dataOf('domain-7').shortUrl, dataOf('domain-7').domain], ['https://go.example.com/abc', 'go.example.com']);
    assert.deepEqual([dataOf('default').shortUrl, dataOf('default').domain], ['https://sho.rt/abc', 'sho.rt']);
  });
});
