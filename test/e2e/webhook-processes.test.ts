import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { createTestDatabase } from '../support/postgres.js';
import { eventually } from '../support/redis.js';
import { registerOverHttp, startServer, type ServerProcess } from '../support/server-process.js';
import { onTeardown } from '../support/teardown.js';
import { startWebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver.js';

const QUICK_DELIVERY = { ALLOW_PRIVATE_DESTINATIONS: 'true', RATE_LIMIT_AUTH: '0', WEBHOOK_POLL_INTERVAL: '100ms', WEBHOOK_RETRY_DELAYS: '200ms' };

async function api(server: ServerProcess, token: string, method: string, url: string, body: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.baseUrl}${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.ok(response.ok, `${method} ${url}: ${response.status} ${await response.clone().text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

/** A webhook for created and updated links in the user's personal workspace; answers its secret. */
async function registerWebhook(server: ServerProcess, token: string, url: string): Promise<string> {
  const me = await (await fetch(`${server.baseUrl}/api/v1/workspaces`, { headers: { authorization: `Bearer ${token}` } })).json() as { workspaces: Array<{ id: number }> };
  const created = await api(server, token, 'POST', `/api/v1/workspaces/${me.workspaces[0]!.id}/webhooks`, { url, events: ['link.created', 'link.updated'] });
  return created.secret as string;
}

/** `count` links, each created then given a new URL: two events per link. */
async function changeLinks(server: ServerProcess, token: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const link = await api(server, token, 'POST', '/api/urls', { url: `https://example.com/p${i}` });
    await api(server, token, 'PATCH', `/api/urls/${link.id}`, { url: `https://example.com/p${i}/moved` });
  }
}

const distinctIds = (received: readonly ReceivedWebhook[]) => new Set(received.map(({ headers }) => headers['webhook-id'])).size;

/** Every body verified with the secret; for each link, the types of its events in the order they first arrived. */
function firstArrivalsByLink(received: readonly ReceivedWebhook[], secret: string): Map<number, string[]> {
  const seen = new Set<string>();
  const byLink = new Map<number, string[]>();
  for (const { headers, body } of received) {
    const event = new Webhook(secret).verify(body, headers) as { type: string; data: { id: number } };
    if (seen.has(headers['webhook-id']!)) continue;
    seen.add(headers['webhook-id']!);
    byLink.set(event.data.id, [...(byLink.get(event.data.id) ?? []), event.type]);
  }
  return byLink;
}

describe('webhook delivery across processes', () => {
  test('a server killed (SIGKILL) mid-delivery and restarted delivers every event at least once, in order per link', { timeout: 180_000 }, async (t) => {
    const receiver = await startWebhookReceiver(t);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-webhooks-'));
    onTeardown(t, () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env = { ...QUICK_DELIVERY, WEBHOOK_CLAIM_TTL: '1s' };
    const first = await startServer(t, env, { dataDir });
    const token = await registerOverHttp(first);
    receiver.answer = 'hang';
    const secret = await registerWebhook(first, token, receiver.url);
    await changeLinks(first, token, 3);
    await receiver.until((received) => received.length > 0);
    first.child.kill('SIGKILL');
    await first.stop();
    receiver.answer = 200;
    const second = await startServer(t, env, { dataDir });
    await receiver.until((received) => distinctIds(received) === 6);
    await second.stop();
    const byLink = firstArrivalsByLink(receiver.received, secret);
    assert.equal(byLink.size, 3);
    for (const types of byLink.values()) assert.deepEqual(types, ['link.created', 'link.updated']);
  });

  test('two servers on one PostgreSQL deliver each event once', { timeout: 180_000 }, async (t) => {
    const database = await createTestDatabase();
    onTeardown(t, () => database.drop());
    const receiver = await startWebhookReceiver(t);
    const env = { ...QUICK_DELIVERY, DATABASE_URL: database.url, JWT_SECRET: 'test-secret-test-secret-test-secret-42', DB_POOL_MIN: '0' };
    const a = await startServer(t, env);
    const b = await startServer(t, env);
    const token = await registerOverHttp(a);
    const secret = await registerWebhook(a, token, receiver.url);
    await changeLinks(b, token, 10);
    await receiver.until((received) => distinctIds(received) === 20);
    // Once every row is recorded delivered, nothing is left to send twice: what arrived is final.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const statuses = async () => (await client.query<{ status: string; n: string }>('select status, count(*) as n from webhook_deliveries group by status'))
        .rows.map((row) => `${row.status}:${row.n}`).join();
      assert.ok(await eventually(async () => await statuses() === 'delivered:20', 30_000), await statuses());
    } finally {
      await client.end();
    }
    assert.equal(receiver.received.length, 20, 'no event arrived twice');
    for (const types of firstArrivalsByLink(receiver.received, secret).values()) assert.deepEqual(types, ['link.created', 'link.updated']);
  });
});
