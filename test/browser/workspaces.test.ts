import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const XSS_NAME = '<img src=x onerror="window.__xss=1">Team';
const XSS_URL = 'https://example.com/?q="><script>window.__xss=2</script><img/src=x/onerror=window.__xss=3>';

/** Workspaces, members and an API key in a real browser; a stored-XSS attempt renders as inert text. */
describe('web UI: workspaces, members, API keys, and stored XSS', () => {
  let ui: UiHarness;
  let context: BrowserContext;
  let page: Page;

  const suite = suiteScope();
  before(async () => {
    ui = await startUi(suite);
    context = await ui.newContext();
    page = await context.newPage();
    const other = await fetch(`${ui.server.baseUrl}/api/auth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'colleague@example.com', password: 'another good password' }),
    });
    assert.equal(other.status, 201);
    await registerInUi(page, 'owner@example.com');
  });

  const xssRan = () => page.evaluate(() => (window as unknown as { __xss?: number }).__xss);

  test('creating a workspace whose name is markup shows the name as text and runs nothing', async () => {
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.waitForURL('**/app/workspaces');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    assert.equal(await page.locator('#workspace-name-error').textContent(), 'Give the workspace a name.');

    await page.getByLabel('New workspace name').fill(XSS_NAME);
    await page.getByRole('button', { name: 'Create workspace' }).click();
    const heading = page.getByRole('heading', { level: 2, name: XSS_NAME });
    await heading.waitFor();
    assert.equal(await page.locator('main img[src="x"]').count(), 0, 'no element was made from the name');
    assert.equal(await xssRan(), undefined);
    await page.reload();
    await page.getByRole('button', { name: XSS_NAME }).click();
    await heading.waitFor();
    assert.equal(await xssRan(), undefined);
  });

  test('members: add a registered user with a role, an unknown email is an inline error, remove', async () => {
    await page.getByLabel('Add a registered user by email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.locator('#member-email-error').waitFor();

    await page.getByLabel('Add a registered user by email').fill('colleague@example.com');
    await page.getByLabel('Role').selectOption('admin');
    await page.getByRole('button', { name: 'Add member' }).click();
    const colleague = page.locator('.members li', { hasText: 'colleague@example.com' });
    await colleague.waitFor();
    assert.match((await colleague.textContent())!, /admin/);
    assert.match((await page.locator('.members li', { hasText: 'owner@example.com' }).textContent())!, /owner/);
    assert.equal(await page.locator('#member-email-error').count(), 0);
  });

  test('an API key: the secret is shown once with a copy button, it works against the API, and it can be revoked', async () => {
    await page.getByLabel('New key name').fill('CI deploys');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secret = page.getByTestId('api-key-secret');
    await secret.waitFor();
    const key = (await secret.textContent())!;
    assert.match(key, /^lfk_/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
    await screenshot(page, 'workspaces');
    assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core on the workspaces page');

    const listed = await fetch(`${ui.server.baseUrl}/api/v1/workspaces`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(listed.status, 200, 'the key authenticates');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await secret.count(), 0);
    await page.reload();
    await page.getByRole('button', { name: XSS_NAME }).click();
    await page.locator('.keys li', { hasText: 'CI deploys' }).waitFor();
    assert.equal(await page.getByText(key).count(), 0, 'the secret is never shown again');

    await page.getByRole('button', { name: 'Revoke CI deploys' }).click();
    await page.getByText('No API keys yet.').waitFor();
    assert.equal((await fetch(`${ui.server.baseUrl}/api/v1/workspaces`, { headers: { authorization: `Bearer ${key}` } })).status, 401);

    await page.locator('.members li', { hasText: 'colleague@example.com' }).getByRole('button', { name: 'Remove colleague@example.com' }).click();
    await page.waitForFunction(() => !document.querySelector('.members')?.textContent?.includes('colleague@example.com'));
  });

  test('a destination URL carrying markup is shown as text on the home page, the dashboard and the link page', async () => {
    await page.goto('/');
    await page.getByLabel('Long URL').fill(XSS_URL);
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.getByTestId('short-url').waitFor();
    assert.match((await page.locator('.result .destination').textContent())!, /%3Cscript%3E/);

    await page.goto('/app/dashboard');
    await page.getByText('Create a link').click();
    await page.getByLabel('Destination URL').fill(XSS_URL);
    await page.getByRole('button', { name: 'Create link' }).click();
    const destination = page.locator('table.links a.dest .dest-full').first();
    await destination.waitFor({ state: 'attached' });
    // The API stores the URL percent-encoded; the page shows it as the text it is (in full in the row's tooltip).
    assert.match((await destination.textContent())!, /%3Cscript%3Ewindow\.__xss=2%3C\/script%3E/);
    assert.equal(await page.locator('main script, main img[src="x"]').count(), 0);

    // The create reloads the list and the workspace's tags: a click while a row is re-rendered is lost.
    await page.waitForLoadState('networkidle');
    await page.getByRole('link', { name: /^Details of / }).first().click();
    await page.waitForURL(/\/app\/links\/\d+$/);
    await page.locator('dd a.destination').waitFor();
    assert.equal(await page.locator('main script, main img[src="x"]').count(), 0);
    assert.equal(await xssRan(), undefined);
  });

  test('raw markup in a stored anonymous link (localStorage is the visitor\'s to edit) is rendered as text on the home page', async () => {
    await page.goto('/');
    await page.evaluate((url) => {
      localStorage.setItem('linkforge.anonymousLinks', JSON.stringify([{ shortCode: 'abc<b>x</b>', claimToken: 't', url, expiresAt: new Date(Date.now() + 3_600_000).toISOString() }]));
    }, 'javascript:window.__xss=4//<img src=x onerror="window.__xss=5">');
    await page.reload();
    const recent = page.getByTestId('recent-links');
    await recent.waitFor();
    assert.match((await recent.textContent())!, /<img src=x onerror="window\.__xss=5">/);
    assert.equal(await recent.locator('img, b').count(), 0);
    assert.equal(await recent.locator('a[href^="javascript:"]').count(), 0, 'a non-http destination is never a link');
    assert.equal(await xssRan(), undefined);
  });

  test('nothing broke the Content-Security-Policy, no page threw, no dialog opened', () => {
    assert.deepEqual(ui.problems, []);
  });
});
