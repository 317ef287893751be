import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { bearerTokenFor, registerInUi, screenshot, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

/** The pages read the API through one hook (web/src/use-api.ts) that aborts the call a newer one supersedes. */
describe('web UI: a superseded answer never shows', () => {
  let ui: UiHarness;
  let context: BrowserContext;
  let page: Page;

  const suite = suiteScope();
  before(async () => {
    ui = await startUi(suite, );
    context = await ui.newContext();
    page = await context.newPage();
    await registerInUi(page, 'filters@example.com');
    const token = await bearerTokenFor(ui.server.baseUrl, 'filters@example.com');
    for (const [customCode, url] of [['alpha-link', 'https://example.com/alpha'], ['beta-link', 'https://example.org/beta']]) {
      const created = await fetch(`${ui.server.baseUrl}/api/urls`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ url, customCode }),
      });
      assert.equal(created.status, 201);
    }
  });
  after(async () => { await ui?.close(); });

  async function filterBy(text: string) {
    await page.getByLabel('Search code or destination').fill(text);
    await page.getByRole('button', { name: 'Apply' }).click();
  }

  const shownCodes = () => page.locator('tr[data-code]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-code')));

  test('on the dashboard, the answer to an earlier filter that arrives after the current one is dropped', async () => {
    await page.goto('/app/dashboard');
    await page.locator('tr[data-code="beta-link"]').waitFor();

    // The answer for "alpha" is held back until the answer for "beta" is on the page, then let through.
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    let heldAnswer: Promise<void> | undefined;
    await page.route(/\/api\/urls\?.*q=alpha/, (route) => {
      heldAnswer = (async () => {
        const response = await route.fetch();
        await released;
        await route.fulfill({ response }).catch(() => undefined); // the page may have aborted it
      })();
      return heldAnswer;
    });

    const alphaSent = page.waitForRequest(/\/api\/urls\?.*q=alpha/);
    const alphaAborted = page.waitForEvent('requestfailed', (request) => /\/api\/urls\?.*q=alpha/.test(request.url()));
    await filterBy('alpha');
    await alphaSent;
    await filterBy('beta');
    assert.match((await alphaAborted).failure()?.errorText ?? '', /ABORTED/, 'the superseded call is aborted');
    await page.waitForFunction(() => {
      const codes = [...document.querySelectorAll('tr[data-code]')].map((row) => row.getAttribute('data-code'));
      return codes.length === 1 && codes[0] === 'beta-link';
    });
    assert.ok(heldAnswer, 'the alpha request was sent, and held');

    release();
    await heldAnswer;
    // A frame and a task later, a late answer would have been rendered, were it not dropped.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    assert.deepEqual(await shownCodes(), ['beta-link'], 'the table still answers the current filter');
    assert.equal(await page.getByLabel('Search code or destination').inputValue(), 'beta');
    await screenshot(page, 'dashboard-filtered');
  });
});
