import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { bearerTokenFor, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** The Webhooks card of the workspace page: register with the secret shown once, see deliveries, redeliver. */
describe('web UI: webhooks', () => {
  let ui: UiHarness;
  let page: Page;
  let receiver: WebhookReceiver;
  const suite = suiteScope();
  before(async () => {
    receiver = await startWebhookReceiver(suite);
    // Loopback receivers are allowed; a failed attempt waits an hour, so only Redeliver sends it again.
    ui = await startUi(suite, { ALLOW_PRIVATE_DESTINATIONS: 'true', WEBHOOK_POLL_INTERVAL: '100ms', WEBHOOK_RETRY_DELAYS: '1h' });
    page = await (await ui.newContext()).newPage();
    await registerInUi(page, 'hooks@example.com');
  });

  test('an owner adds a webhook, copies its secret, sees a failed delivery and redelivers it', async () => {
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.waitForURL('**/app/workspaces');
    await page.locator('.workspaces button').first().click();
    await page.getByRole('heading', { level: 3, name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    assert.equal(await page.locator('#webhook-url-error').textContent(), 'Give the address that receives the events.');

    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByLabel('link.deleted').check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    assert.match(secret, /^whsec_/);
    const listed = page.locator('.webhooks > li', { hasText: receiver.url });
    assert.match((await listed.textContent())!, /enabled.*link\.created, link\.deleted/);

    receiver.answer = 500;
    const token = await bearerTokenFor(ui.server.baseUrl, 'hooks@example.com');
    const created = await fetch(`${ui.server.baseUrl}/api/urls`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/hooked' }),
    });
    assert.equal(created.status, 201);
    await receiver.until((received) => received.length === 1);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.reload();
    await page.locator('.workspaces button').first().click();
    await page.getByText('Last deliveries (1)').click();
    const row = page.locator('.webhook-deliveries tbody tr');
    await row.filter({ hasText: 'HTTP 500' }).waitFor();
    assert.match((await row.textContent())!, /link\.created.*pending.*1.*HTTP 500/);

    receiver.answer = 204;
    await page.getByRole('button', { name: /^Redeliver link\.created/ }).click();
    await receiver.until((received) => received.length === 2);
    assert.equal(receiver.received[0]!.headers['webhook-id'], receiver.received[1]!.headers['webhook-id']);
    const event = new Webhook(secret).verify(receiver.received[1]!.body, receiver.received[1]!.headers) as { type: string };
    assert.equal(event.type, 'link.created');
    await page.reload();
    await page.locator('.workspaces button').first().click();
    await page.getByText('Last deliveries (1)').click();
    await row.filter({ hasText: 'delivered' }).waitFor();
    await screenshot(page, 'workspace-webhooks');
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(ui.problems, []);
  });
});
