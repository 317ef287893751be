import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const VIEWPORTS = [{ name: '1280', width: 1280, height: 900 }, { name: '375', width: 375, height: 812 }] as const;
const PERSON = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

async function assertAccessible(page: Page, name: string) {
  assert.equal(await pageOverflowsSideways(page), false, `${name}: no sideways scrolling`);
  await screenshot(page, name);
  assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
}

/** A person following the short link (Node's own User-Agent counts as a bot, which takes no click). */
async function click(shortUrl: string): Promise<string | null> {
  const response = await fetch(shortUrl, { redirect: 'manual', headers: { 'user-agent': PERSON } });
  await response.body?.cancel();
  return response.headers.get('location');
}

describe('web UI: a click limit and a fallback URL', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  before(async () => { ui = await startUi(suite); });

  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.name} px: Shorten with "Stop after 2 clicks" and a fallback, the clicks left on the link page and the row, Edit gives it 5, Create a link makes one that is used up`, async () => {
      const context = await ui.newContext(viewport);
      const page = await context.newPage();
      const code = `limited-${viewport.name}`;
      await registerInUi(page, `limits${viewport.name}@example.com`);
      await page.goto('/');
      await page.getByText('Click limit and fallback (optional)').click();
      await page.getByLabel('Long URL').fill('https://example.com/limited');
      await page.getByLabel('Custom code (optional)').fill(code);
      await page.getByLabel('Stop after N clicks (optional)').fill('2');
      await page.getByLabel('Fallback URL (optional)').fill('http://10.0.0.1/inside');
      await page.getByRole('button', { name: 'Shorten' }).click();
      await page.locator('#limit-fallback-url-error').waitFor();
      assert.match((await page.locator('#limit-fallback-url-error').textContent())!, /internal network/);
      await assertAccessible(page, `click-limit-form-error-${viewport.name}`);
      await page.getByLabel('Fallback URL (optional)').fill('https://example.com/after');
      await page.getByRole('button', { name: 'Shorten' }).click();
      const shortUrl = (await page.getByTestId('short-url').textContent())!;
      assert.equal(await click(shortUrl), 'https://example.com/limited');

      await page.getByRole('link', { name: 'Open its page' }).click();
      assert.equal(await page.getByTestId('clicks-left').textContent(), '1 of 2 clicks left');
      await assertAccessible(page, `click-limit-link-page-${viewport.name}`);

      await page.getByRole('link', { name: '← All links' }).click();
      const row = page.locator(`tr[data-code="${code}"]`);
      assert.equal(await row.getByTestId('clicks-left').textContent(), '1 of 2 clicks left');
      await row.getByRole('button', { name: `Edit ${code}` }).click();
      const editForm = page.getByRole('form', { name: `Edit ${code}` });
      assert.equal(await editForm.getByLabel('Stop after N clicks (optional)').inputValue(), '2');
      assert.equal(await editForm.getByLabel('Fallback URL (optional)').inputValue(), 'https://example.com/after');
      await editForm.getByLabel('Stop after N clicks (optional)').fill('5');
      await assertAccessible(page, `click-limit-edit-${viewport.name}`);
      await editForm.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`Saved ${code}`).waitFor();
      await page.locator(`tr[data-code="${code}"] [data-testid="clicks-left"]`, { hasText: '5 of 5 clicks left' }).waitFor();

      await page.getByText('Create a link').click();
      const createForm = page.locator('details.create');
      await createForm.getByLabel('Destination URL').fill('https://example.com/once');
      await createForm.getByLabel('Custom code (optional)').fill(`once-${viewport.name}`);
      await createForm.getByLabel('Stop after N clicks (optional)').fill('1');
      await createForm.getByRole('button', { name: 'Create link' }).click();
      await page.locator(`tr[data-code="once-${viewport.name}"]`).waitFor();
      const once = `${new URL(shortUrl).origin}/once-${viewport.name}`;
      assert.equal(await click(once), 'https://example.com/once');
      assert.equal(await click(once), null, 'used up, without a fallback: the 410 page');
      await page.reload();
      await page.locator(`tr[data-code="once-${viewport.name}"] [data-testid="clicks-left"]`, { hasText: 'Used up' }).waitFor();
      await context.close();
    });
  }
});
