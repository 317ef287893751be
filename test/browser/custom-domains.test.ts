import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { Page } from 'playwright-core';
import { registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { startDnsServer, type DnsRecords } from '../support/dns-server.js';
import { suiteScope } from '../support/teardown.js';

/** ADR 0036 in the browser: add a domain, see the record to set, verify it, give it redirects, make a link on it, delete it. */
describe('web UI: custom domains', () => {
  let ui: UiHarness;
  let page: Page;
  let dns: DnsRecords;
  const suite = suiteScope();
  before(async () => {
    const server = await startDnsServer(suite);
    dns = server.records;
    ui = await startUi(suite, { DOMAIN_DNS_SERVERS: server.address });
    page = await (await ui.newContext()).newPage();
    await registerInUi(page, 'brand@example.com');
  });

  /** fetch() sends the URL's own Host; node:http sends the one given, as a browser on that name would. */
  const locationOn = (path: string, host: string) => new Promise<string | undefined>((resolve, reject) => {
    http.get(`${ui.server.baseUrl}${path}`, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.headers.location);
    }).on('error', reject);
  });

  test('a domain is added pending with its TXT record, verified, given redirects, offered when creating a link, and deleted', async () => {
    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.waitForURL('**/app/workspaces');
    await page.locator('.workspaces li button').first().click();
    await page.getByLabel('Add a domain').fill('not a host');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.locator('#domain-hostname-error').waitFor();

    await page.getByLabel('Add a domain').fill('Go.Example.com');
    await page.getByRole('button', { name: 'Add domain' }).click();
    const row = page.locator('li[data-domain="go.example.com"]');
    await row.getByText('pending').waitFor();
    const record = await row.locator('code').nth(0).textContent();
    const token = (await row.locator('code').nth(1).textContent())!;
    assert.equal(record, '_linkforge-challenge.go.example.com');
    assert.match(token, /^lfv_/);

    await row.getByRole('button', { name: 'Verify' }).click();
    await page.getByText(/Neither a TXT record/).waitFor();
    dns.txt.set('_linkforge-challenge.go.example.com', [token]);
    await row.getByRole('button', { name: 'Verify' }).click();
    await row.getByText('verified').waitFor();
    assert.equal(await row.getByRole('button', { name: 'Verify' }).count(), 0);

    await row.getByLabel('Root redirect (optional)').fill('https://example.com/home');
    const saved = page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().includes('/domains/'));
    await row.getByRole('button', { name: 'Save redirects' }).click();
    assert.equal((await saved).status(), 200);
    await screenshot(page, 'custom-domains');
    assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core on the workspaces page with a domain');
    assert.equal(await locationOn('/', 'go.example.com'), 'https://example.com/home');

    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.getByText('Create a link').click();
    const form = page.locator('details.create');
    await form.getByLabel('Destination URL').fill('https://example.com/branded');
    await form.getByLabel('Custom code (optional)').fill('branded1');
    await form.getByLabel('Domain').selectOption('go.example.com');
    await form.getByRole('button', { name: 'Create link' }).click();
    const link = page.locator('tr[data-code="branded1"]');
    await link.waitFor();
    assert.match((await link.textContent())!, /go\.example\.com\/branded1/);
    await screenshot(page, 'custom-domain-link');
    assert.equal(await locationOn('/branded1', 'go.example.com'), 'https://example.com/branded');

    await page.getByRole('link', { name: 'Workspaces' }).click();
    await page.locator('.workspaces li button').first().click();
    await page.getByRole('button', { name: 'Delete the domain go.example.com' }).click();
    await page.getByText('No custom domains yet').waitFor();
    assert.deepEqual(ui.problems, []);
  });
});
