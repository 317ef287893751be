import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const HTML = { accept: 'text/html' };

/** The password and confirmation controls of the Shorten form, the link's page and the dashboard's Edit. */
describe('web UI: a link\'s password and confirmation controls', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  before(async () => { ui = await startUi(suite); });

  test('Shorten shows the API\'s password error by its field, makes a guarded link, and Edit removes the password and the confirmation', async () => {
    const context = await ui.newContext();
    const page = await context.newPage();
    await registerInUi(page, 'gates@example.com');
    await page.goto('/');
    await page.getByText('Password and confirmation (optional)').click();
    await page.getByLabel('Long URL').fill('https://example.com/guarded');
    await page.getByLabel('Custom code (optional)').fill('guarded-ui');
    await page.getByLabel('Password (optional)').fill('abc');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.getByText(/at least 4 characters/).waitFor();
    await page.getByLabel('Password (optional)').fill('let me in');
    await page.getByLabel('Ask visitors to confirm').check();
    await screenshot(page, 'link-gate-shorten-form');
    assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core on the Shorten form');
    await page.getByRole('button', { name: 'Shorten' }).click();
    const shortUrl = (await page.getByTestId('short-url').textContent())!;
    const guarded = await fetch(shortUrl, { redirect: 'manual', headers: HTML });
    assert.deepEqual([guarded.status, guarded.headers.get('location')], [200, null]);
    assert.match(await guarded.text(), /name="password"/);

    await page.getByRole('link', { name: 'Open its page' }).click();
    assert.equal(await page.getByTestId('link-gate').textContent(), 'Password protected · Asks to confirm');

    await page.getByRole('link', { name: '← All links' }).click();
    await page.locator('tr[data-code="guarded-ui"]').getByRole('button', { name: 'Edit guarded-ui' }).click();
    const editForm = page.getByRole('form', { name: 'Edit guarded-ui' });
    assert.equal(await editForm.getByLabel('Ask visitors to confirm').isChecked(), true, 'the edit form starts from the link');
    await editForm.getByText('Leave empty to keep the current password.').waitFor();
    await editForm.getByLabel('Remove the password').check();
    await editForm.getByLabel('Ask visitors to confirm').uncheck();
    await screenshot(page, 'link-gate-edit-row');
    assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core on the Edit row');
    await editForm.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved guarded-ui').waitFor();
    const open = await fetch(shortUrl, { redirect: 'manual', headers: HTML });
    assert.deepEqual([open.status, open.headers.get('location')], [301, 'https://example.com/guarded']);
    assert.deepEqual(ui.problems, []);
    await context.close();
  });
});
