import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bearerTokenFor, pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** The "Link preview" section of the dashboard's forms and the link page's card of it; light and dark. */
describe('web UI: link previews', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  before(async () => { ui = await startUi(suite); });

  async function check(page: Page, name: string) {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
    assert.equal(await pageOverflowsSideways(page), false, `${name} needs no sideways scrolling`);
  }

  const previewPageOf = async (code: string) => (await fetch(`${ui.server.baseUrl}/${code}`, { headers: { 'user-agent': SLACKBOT } })).text();

  test('create with a preview, see its card, fix a refused image in Edit, then clear it; light and dark', async () => {
    const context = await ui.newContext({ width: 1280 });
    const page = await context.newPage();
    const email = 'previewer@example.com';
    await registerInUi(page, email);
    await page.goto('/app/dashboard');
    await page.locator('details.create > summary').click();
    await page.locator('#new-url').fill('https://example.com/spring-sale');
    await page.locator('#new-code').fill('spring');
    await page.getByText('Link preview').first().click();
    await page.getByLabel('Preview title').fill('Spring sale: <half> off & more');
    await page.getByLabel('Preview description').fill('Everything in the shop, this week only.');
    await page.getByLabel('Preview image URL').fill('https://cdn.example/spring.png');
    await check(page, 'link-preview-create-light');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.locator('tr[data-code="spring"]').waitFor();
    assert.ok((await previewPageOf('spring')).includes('<meta property="og:title" content="Spring sale: &#60;half&#62; off &#38; more">'));

    const token = await bearerTokenFor(ui.server.baseUrl, email);
    const { items } = await (await fetch(`${ui.server.baseUrl}/api/urls`, { headers: { authorization: `Bearer ${token}` } })).json() as { items: { id: number }[] };
    await page.goto(`/app/links/${items[0]!.id}`);
    const card = page.getByTestId('preview-card');
    assert.match((await card.textContent())!, /Spring sale: <half> off & more.*Everything in the shop.*cdn\.example\/spring\.png/);
    await check(page, 'link-preview-card-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await check(page, 'link-preview-card-dark');

    await page.goto('/app/dashboard');
    await page.locator('tr[data-code="spring"]').getByRole('button', { name: 'Edit spring' }).click();
    const editForm = page.getByRole('form', { name: 'Edit spring' });
    assert.equal(await editForm.getByLabel('Preview title').inputValue(), 'Spring sale: <half> off & more', 'the edit form starts from the link\'s preview');
    await editForm.getByLabel('Preview image URL').fill('http://127.0.0.1/inside.png');
    await editForm.getByRole('button', { name: 'Save' }).click();
    await editForm.locator('[id$="-preview-image-error"]').filter({ hasText: /internal network addresses/ }).waitFor();
    assert.equal(await editForm.locator('[id$="-url-error"]').count(), 0, 'the error is under the image, not the destination');
    await check(page, 'link-preview-edit-error-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    for (const label of ['Preview title', 'Preview description', 'Preview image URL']) await editForm.getByLabel(label).fill('');
    await editForm.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved spring').waitFor();
    const redirect = await fetch(`${ui.server.baseUrl}/spring`, { headers: { 'user-agent': SLACKBOT }, redirect: 'manual' });
    assert.equal(redirect.status, 301, 'without a preview the agent is redirected again');
    assert.deepEqual(ui.problems, []);
    await context.close();
  });
});
