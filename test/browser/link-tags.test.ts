import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

/**
 * ADR 0030 in the browser: tags typed in the create form show as chips on the row, take the
 * colour set in the workspace's tag list, filter the list, and change in the edit form; in light
 * and dark mode.
 */
describe('web UI: tags on links', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  before(async () => { ui = await startUi(suite); });

  async function check(page: Page, name: string) {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
    assert.equal(await pageOverflowsSideways(page), false, `${name} needs no sideways scrolling`);
  }

  test('create with tags, recolour and rename in the workspace, filter by a tag, edit the tags; light and dark', async () => {
    const context = await ui.newContext({ width: 1280 });
    const page = await context.newPage();
    await registerInUi(page, 'tagger@example.com');

    const created: Array<[string, string]> = [['https://example.com/launch-post', 'Launch, news'], ['https://example.com/pricing', 'pricing'], ['https://example.com/changelog', 'news']];
    for (const [i, [url, tags]] of created.entries()) {
      if (!(await page.locator('#new-url').isVisible())) await page.locator('details.create > summary').click();
      await page.locator('#new-url').fill(url);
      await page.locator('#new-tags').fill(tags);
      await page.getByRole('button', { name: 'Create link' }).click();
      await page.locator('tbody tr[data-code]').nth(i).waitFor();
    }
    const launchRow = page.locator('tr', { has: page.locator('a[href="https://example.com/launch-post"]') });
    assert.deepEqual(await launchRow.locator('.tag-chip').allTextContents(), ['Launch', 'news']);

    await page.goto('/app/workspaces');
    await page.locator('ul.workspaces button').first().click();
    const newsRow = page.locator('[data-tag-row="news"]');
    await newsRow.getByLabel('Colour of news').selectOption('teal');
    await page.locator('[data-tag-row="news"] .tag-teal').waitFor();
    await page.locator('[data-tag-row="pricing"]').getByLabel('Colour of pricing').selectOption('purple');
    await page.locator('[data-tag-row="pricing"] .tag-purple').waitFor();
    await page.getByLabel('New name for Launch').fill('Go live');
    await page.getByRole('button', { name: 'Rename' }).first().click();
    await page.locator('[data-tag-row="Go live"]').waitFor();
    assert.match(await newsRow.textContent() ?? '', /2 links/);
    await check(page, 'tags-workspace-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await check(page, 'tags-workspace-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await page.goto('/app/dashboard');
    await page.locator('.tag-chip.tag-teal').first().waitFor();
    assert.deepEqual(await launchRow.locator('.tag-chip').allTextContents(), ['Go live', 'news']);
    await page.getByLabel('Tags (any of)').fill('news');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/tags=news/);
    await page.locator('tr[data-code]').nth(1).waitFor();
    assert.equal(await page.locator('tbody tr[data-code]').count(), 2);
    await check(page, 'tags-dashboard-filtered-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await check(page, 'tags-dashboard-filtered-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await launchRow.getByRole('button', { name: /^Edit / }).click();
    const tagsInput = page.locator('input[id^="edit-"][id$="-tags"]');
    assert.equal(await tagsInput.inputValue(), 'Go live, news');
    await tagsInput.fill('news, bad,tag-ok, -bad');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.field-error', { hasText: 'tags' }).waitFor();
    await screenshot(page, 'tags-edit-error');
    await tagsInput.fill('news, evergreen');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await launchRow.locator('.tag-chip', { hasText: 'evergreen' }).waitFor();
    assert.deepEqual(await launchRow.locator('.tag-chip').allTextContents(), ['evergreen', 'news']);
    assert.deepEqual(ui.problems, []);
    await context.close();
  });
});
