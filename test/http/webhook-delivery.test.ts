import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createLink } from '../support/owned-links.js';
import { suiteScope } from '../support/teardown.js';
import { HOUR, QUICK_CLEANUP } from '../support/cleanup-fixtures.js';
import { eventually } from '../support/redis.js';
import { bearer, createApiKey, registerUser, type RegisteredUser } from '../support/users.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

describe('webhook outbox and delivery', () => {
  let t: TestApp;
  const suite = suiteScope();
  before(async () => {
    t = await createTestApp(suite, { RATE_LIMIT_AUTH: '0', ALLOW_PRIVATE_DESTINATIONS: 'true', WEBHOOK_RETRY_DELAYS: '5s,30s,2m', WEBHOOK_GIVE_UP_AFTER: '24h', ...QUICK_CLEANUP });
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const register = async (owner: RegisteredUser, url: string, events: string[]) => {
    const response = await call('POST', `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks`, owner.token, { url, events });
    assert.equal(response.statusCode, 201, response.body);
    return response.json() as { id: number; secret: string };
  };
  const outboxOf = (endpointId: number) => t.deps.database.db.selectFrom('webhook_deliveries').selectAll()
    .where('endpoint_id', '=', endpointId).orderBy('id').execute();
  const deliver = () => t.deps.webhookJobs.job.run();
  /** Each body verified with the secret as a receiver would (standardwebhooks), parsed. */
  const verified = (receiver: WebhookReceiver, secret: string) =>
    receiver.received.map(({ headers, body }) => new Webhook(secret).verify(body, headers) as { type: string; timestamp: string; data: Record<string, unknown> });

  test('a change writes one outbox row per enabled endpoint that asked for its event, and a refused change writes none', async () => {
    t.clock.set(Date.now());
    const owner = await registerUser(t.app);
    const created = await register(owner, 'http://127.0.0.1:9/a', ['link.created', 'link.updated']);
    const deletedOnly = await register(owner, 'http://127.0.0.1:9/b', ['link.deleted']);
    const disabled = await register(owner, 'http://127.0.0.1:9/c', ['link.created']);
    await call('PATCH', `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks/${disabled.id}`, owner.token, { enabled: false });
    const first = await createLink(t.app, owner.token, { url: 'https://example.com/one' });
    await createLink(t.app, owner.token, { url: 'https://example.com/two' });
    assert.deepEqual((await outboxOf(created.id)).map((row) => [row.event_type, row.status, Number(row.attempts)]), [['link.created', 'pending', 0], ['link.created', 'pending', 0]]);
    assert.deepEqual(await outboxOf(deletedOnly.id), []);
    assert.deepEqual(await outboxOf(disabled.id), []);
    // The URL is the other link's: the UPDATE breaks the unique index and is rolled back with its outbox row.
    const conflict = await call('PATCH', `/api/urls/${first.id}`, owner.token, { url: 'https://example.com/two' });
    assert.equal(conflict.statusCode, 409);
    assert.equal((await outboxOf(created.id)).length, 2);
    assert.equal((await call('DELETE', `/api/urls/${first.id}`, owner.token)).statusCode, 204);
    assert.deepEqual((await outboxOf(deletedOnly.id)).map((row) => [row.event_type, Number(row.link_id)]), [['link.deleted', first.id]]);
    // Deleting an endpoint takes its outbox rows along (the next tests count what a run sends).
    for (const { id } of [created, deletedOnly, disabled]) await call('DELETE', `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks/${id}`, owner.token);
    assert.deepEqual([...await outboxOf(created.id), ...await outboxOf(deletedOnly.id)], []);
  });

  test('events arrive signed (Standard Webhooks), in order per link, as { type, timestamp, data } with the API\'s link fields', async () => {
    t.clock.set(Date.now());
    const owner = await registerUser(t.app);
    const receiver = await startWebhookReceiver(suite);
    const endpoint = await register(owner, receiver.url, ['link.created', 'link.updated', 'link.deleted', 'link.limit_reached']);
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/signed', maxClicks: 1 });
    assert.equal((await call('PATCH', `/api/urls/${link.id}`, owner.token, { url: 'https://example.com/moved' })).statusCode, 200);
    assert.equal((await t.app.inject({ url: `/${link.shortCode}`, headers: { 'user-agent': PERSON } })).statusCode, 302);
    assert.equal((await call('DELETE', `/api/urls/${link.id}`, owner.token)).statusCode, 204);
    // One run sends one event of a link at a time; each run goes on until nothing is due.
    assert.equal(await deliver(), 4);
    const events = verified(receiver, endpoint.secret);
    assert.deepEqual(events.map((event) => [event.type, event.data.originalUrl, event.data.status]), [
      ['link.created', 'https://example.com/signed', 'ACTIVE'],
      ['link.updated', 'https://example.com/moved', 'ACTIVE'],
      ['link.limit_reached', 'https://example.com/moved', 'ACTIVE'],
      ['link.deleted', 'https://example.com/moved', 'DELETED'],
    ]);
    assert.deepEqual(events[0]!.data, {
      id: link.id, shortCode: link.shortCode, shortUrl: `http://sho.rt/${link.shortCode}`, domain: 'sho.rt', originalUrl: 'https://example.com/signed',
      normalizedUrl: 'https://example.com/signed', linkType: 'PERMANENT', status: 'ACTIVE', workspaceId: owner.personalWorkspaceId,
      createdAt: link.createdAt, updatedAt: link.createdAt, expiresAt: null, deletedAt: null, redirectStatus: null, maxClicks: 1, clicksLeft: 1,
    });
    assert.ok(!Number.isNaN(Date.parse(events[0]!.timestamp)));
    const ids = receiver.received.map(({ headers }) => headers['webhook-id']);
    assert.equal(new Set(ids).size, 4);
    assert.deepEqual((await outboxOf(endpoint.id)).map((row) => row.status), ['delivered', 'delivered', 'delivered', 'delivered']);
    assert.equal(await deliver(), 0);
    assert.equal(receiver.received.length, 4);
  });

  test('a failing receiver is retried on the schedule with the same webhook-id; a later event of the link waits for it', async () => {
    t.clock.set(Date.now());
    const owner = await registerUser(t.app);
    const receiver = await startWebhookReceiver(suite);
    const endpoint = await register(owner, receiver.url, ['link.created', 'link.updated']);
    const base = `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks/${endpoint.id}`;
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/retry' });
    await call('PATCH', `/api/urls/${link.id}`, owner.token, { url: 'https://example.com/retry-2' });
    const other = await createLink(t.app, owner.token, { url: 'https://example.com/other' });
    receiver.answer = 503;
    assert.equal(await deliver(), 2, 'the head event of each link');
    assert.deepEqual(receiver.received.map(({ body }) => JSON.parse(body).data.id), [link.id, other.id]);
    const failing = (await call('GET', `${base}/deliveries`, owner.token)).json().deliveries;
    assert.deepEqual(failing.map((d: { event_type: string; status: string; attempts: number; last_status: number | null; last_error: string | null; next_attempt_at: string | null }) =>
      [d.event_type, d.status, d.attempts, d.last_status, d.last_error, d.next_attempt_at]), [
      ['link.created', 'pending', 1, 503, 'HTTP 503', new Date(t.clock.now() + 5_000).toISOString()],
      ['link.updated', 'pending', 0, null, null, failing[1].next_attempt_at],
      ['link.created', 'pending', 1, 503, 'HTTP 503', new Date(t.clock.now() + 5_000).toISOString()],
    ].reverse());
    assert.equal(await deliver(), 0, 'nothing is due before the first delay');
    t.clock.advance(5_000);
    assert.equal(await deliver(), 2);
    const second = (await outboxOf(endpoint.id))[0]!;
    assert.equal(Number(second.next_attempt_at), t.clock.now() + 30_000, 'the second delay');
    receiver.answer = 204;
    t.clock.advance(30_000);
    assert.equal(await deliver(), 3, 'both heads, then the update they held back');
    const ids = receiver.received.map(({ headers }) => headers['webhook-id']);
    assert.deepEqual(ids.slice(0, 6), [ids[0], ids[1], ids[0], ids[1], ids[0], ids[1]]);
    const events = verified(receiver, endpoint.secret);
    assert.deepEqual(events.slice(4).map((event) => [event.type, event.data.id]), [['link.created', link.id], ['link.created', other.id], ['link.updated', link.id]]);
    const done = (await call('GET', `${base}/deliveries`, owner.token)).json().deliveries;
    assert.deepEqual(done.map((d: { status: string; last_status: number; next_attempt_at: string | null }) => [d.status, d.last_status, d.next_attempt_at]),
      [['delivered', 204, null], ['delivered', 204, null], ['delivered', 204, null]]);
    // Redeliver: due at once, the same webhook-id.
    const redeliver = await call('POST', `${base}/deliveries/${done[2].id}/redeliver`, owner.token);
    assert.equal(redeliver.statusCode, 202);
    assert.equal(await deliver(), 1);
    assert.equal(receiver.received.at(-1)!.headers['webhook-id'], `msg_${done[2].id}`);
    assert.equal((await call('POST', `${base}/deliveries/999999999/redeliver`, owner.token)).statusCode, 404);
  });

  test('after 24 hours of failures the event is given up and the endpoint disabled with its reason; enabling clears it', async () => {
    t.clock.set(Date.now());
    const owner = await registerUser(t.app);
    const receiver = await startWebhookReceiver(suite);
    receiver.answer = 500;
    const endpoint = await register(owner, receiver.url, ['link.created']);
    const base = `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks/${endpoint.id}`;
    await createLink(t.app, owner.token, { url: 'https://example.com/doomed' });
    // A day passes, longer than a session token lives: the rest is read with an API key.
    const key = await createApiKey(t.app, owner.token, owner.personalWorkspaceId);
    assert.equal(await deliver(), 1);
    t.clock.advance(23 * 3_600_000);
    assert.equal(await deliver(), 1);
    assert.equal((await call('GET', base, key)).json().enabled, true, 'failing for 23 h: still enabled');
    t.clock.advance(3_600_000 + 1);
    assert.equal(await deliver(), 1);
    const listing = await call('GET', `${base}/deliveries`, key);
    assert.equal(listing.statusCode, 200, listing.body);
    const [delivery] = listing.json().deliveries;
    assert.deepEqual([delivery.status, delivery.attempts, delivery.next_attempt_at], ['failed', 3, null]);
    const disabled = (await call('GET', base, key)).json();
    assert.equal(disabled.enabled, false);
    assert.match(disabled.disabled_reason, /^Deliveries failed for 24 hours \(last: HTTP 500\)\.$/);
    const whileDisabled = await t.app.inject({ method: 'POST', url: `/api/v1/workspaces/${owner.personalWorkspaceId}/links`, headers: bearer(key), payload: { original_url: 'https://example.com/while-disabled' } });
    assert.equal(whileDisabled.statusCode, 201, whileDisabled.body);
    assert.deepEqual((await outboxOf(endpoint.id)).length, 1, 'a disabled endpoint gets no events');
    const enabled = (await call('PATCH', base, key, { enabled: true })).json();
    assert.deepEqual([enabled.enabled, enabled.disabled_reason], [true, null]);
  });

  test('the cleanup job\'s expiry is reported as link.expired, in the transaction that marks the link', async () => {
    t.clock.set(Date.now());
    const owner = await registerUser(t.app);
    const receiver = await startWebhookReceiver(suite);
    const endpoint = await register(owner, receiver.url, ['link.expired']);
    const link = await createLink(t.app, owner.token, { url: 'https://example.com/short-lived', expiresAt: new Date(t.clock.now() + HOUR).toISOString() });
    assert.deepEqual(await outboxOf(endpoint.id), []);
    t.clock.advance(3 * HOUR);
    await t.deps.cleanup.job.run();
    assert.equal((await outboxOf(endpoint.id)).length, 1);
    t.clock.set(Date.now()); // the receiver checks webhook-timestamp against its own clock
    assert.equal(await deliver(), 1);
    const [event] = receiver.received.map(({ headers, body }) => new Webhook(endpoint.secret).verify(body, headers) as { type: string; data: Record<string, unknown> });
    assert.deepEqual([event!.type, event!.data.id, event!.data.status], ['link.expired', link.id, 'EXPIRED']);
  });

  test('link.clicked: one delivery per endpoint per analytics flush, with the clicks of its workspace\'s links', async () => {
    t.clock.set(Date.now());
    const owner = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    const receiver = await startWebhookReceiver(suite);
    const endpoint = await register(owner, receiver.url, ['link.clicked']);
    const busy = await createLink(t.app, owner.token, { url: 'https://example.com/busy' });
    const quiet = await createLink(t.app, owner.token, { url: 'https://example.com/quiet' });
    const theirs = await createLink(t.app, stranger.token, { url: 'https://example.com/theirs' });
    for (const code of [busy.shortCode, busy.shortCode, quiet.shortCode, theirs.shortCode, busy.shortCode]) {
      assert.equal((await t.app.inject({ url: `/${code}`, headers: { 'user-agent': PERSON } })).statusCode, 301);
    }
    assert.deepEqual(await outboxOf(endpoint.id), [], 'nothing before the flush');
    await t.deps.analytics!.flusher.flushNow();
    assert.ok(await eventually(async () => (await outboxOf(endpoint.id)).length === 1, 10_000), 'queued after the flush');
    assert.equal(await deliver(), 1);
    const [event] = verified(receiver, endpoint.secret);
    assert.equal(event!.type, 'link.clicked');
    assert.deepEqual(event!.data, { clicks: [{ linkId: busy.id, code: busy.shortCode, count: 3 }, { linkId: quiet.id, code: quiet.shortCode, count: 1 }] });
  });

  // Last in the file: it moves the clock a month on.
  test('the cleanup run deletes finished deliveries WEBHOOK_DELIVERY_RETENTION (30 days) after their event; a pending one stays', async () => {
    const start = Date.now();
    t.clock.set(start);
    const owner = await registerUser(t.app);
    const receiver = await startWebhookReceiver(suite);
    const endpoint = await register(owner, receiver.url, ['link.created']);
    const key = await createApiKey(t.app, owner.token, owner.personalWorkspaceId); // a session would not last the month
    const listed = async () => {
      const response = await call('GET', `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks/${endpoint.id}/deliveries`, key);
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as { deliveries: { status: string }[] }).deliveries.map((d) => d.status);
    };
    await createLink(t.app, owner.token, { url: 'https://example.com/kept-a-month' });
    assert.equal(await deliver(), 1);
    await createLink(t.app, owner.token, { url: 'https://example.com/waits' });
    await call('PATCH', `/api/v1/workspaces/${owner.personalWorkspaceId}/webhooks/${endpoint.id}`, owner.token, { enabled: false });
    assert.equal(await deliver(), 0, 'a disabled endpoint\'s delivery waits');
    assert.deepEqual(await listed(), ['pending', 'delivered']);
    const cleanupRun = async () => {
      const result = await t.deps.cleanup.job.run();
      assert.equal(result.outcome, 'ran');
      return result.outcome === 'ran' ? result.webhookDeliveriesDeleted : undefined;
    };
    t.clock.set(start + 30 * 24 * HOUR - HOUR);
    assert.equal(await cleanupRun(), 0);
    assert.deepEqual(await listed(), ['pending', 'delivered'], 'not yet 30 days');
    t.clock.set(start + 30 * 24 * HOUR + HOUR);
    const finished = await t.deps.database.db.selectFrom('webhook_deliveries').select('id').where('status', 'in', ['delivered', 'failed']).execute();
    assert.equal(await cleanupRun(), finished.length, 'every finished delivery of this file is older than 30 days now');
    assert.deepEqual(await listed(), ['pending']);
    assert.equal((await outboxOf(endpoint.id)).length, 1);
  });
});
