import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0032 in a real browser: a read-only key made with the form's scopes and expiry, listed with them, and held to them by the API. */
describe('web UI: API keys with scopes and an expiry', () => {
  let ui: UiHarness;
  let page: Page;

  const suite = suiteScope();
  before(async () => {
    ui = await startUi(suite);
    page = await (await ui.newContext()).newPage();
    await registerInUi(page, 'scripts@example.com');
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.waitForURL('**/app/workspaces');
    await page.getByLabel('New workspace name').fill('Scripts');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { level: 2, name: 'Scripts' }).waitFor();
  });

  test('a form without any scope ticked is refused inline, and makes no key', async () => {
    await page.getByLabel('New key name').fill('nothing');
    for (const scope of ['links:read', 'links:write', 'stats:read', 'workspace:admin']) await page.getByLabel(new RegExp(`^${scope}:`)).uncheck();
    await page.getByRole('button', { name: 'Create API key' }).click();
    assert.equal(await page.locator('#key-scopes-error').textContent(), 'Tick at least one scope.');
    assert.equal(await page.getByText('No API keys yet.').count(), 1);
  });

  test('a read-only key is listed with its one scope and its expiry, reads links and is refused a write', async () => {
    await page.getByLabel('New key name').fill('dashboard reader');
    await page.getByLabel(/^links:read:/).check();
    await page.getByLabel('Expires').selectOption({ label: 'In 30 days' });
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = page.getByTestId('api-key-secret');
    await secret.waitFor();
    const key = (await secret.textContent())!;

    const row = page.locator('.keys li', { hasText: 'dashboard reader' });
    await row.waitFor();
    assert.deepEqual(await row.locator('.scope').allTextContents(), ['links:read']);
    assert.match((await row.textContent())!, /expires .*last used never/);
    await screenshot(page, 'api-key-scopes');
    assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core on the API key form and list');

    const workspaces = await (await fetch(`${ui.server.baseUrl}/api/v1/workspaces`, { headers: { authorization: `Bearer ${key}` } })).json() as { workspaces: Array<{ id: number }> };
    const links = `${ui.server.baseUrl}/api/v1/workspaces/${workspaces.workspaces[0]!.id}/links`;
    assert.equal((await fetch(links, { headers: { authorization: `Bearer ${key}` } })).status, 200);
    const write = await fetch(links, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ original_url: 'https://example.com/nope' }),
    });
    assert.equal(write.status, 403);
    assert.equal((await write.json() as { code: string }).code, 'insufficient_scope');

    await page.reload();
    await page.getByRole('button', { name: 'Scripts' }).click();
    await page.locator('.keys li', { hasText: /dashboard reader.*last used \d/ }).waitFor();
  });

  test('nothing broke the Content-Security-Policy, no page threw, no dialog opened', () => {
    assert.deepEqual(ui.problems, []);
  });
});
