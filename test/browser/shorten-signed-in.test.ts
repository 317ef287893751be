import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Download, Page } from 'playwright-core';
import { bearerTokenFor, pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const VIEWPORTS = [{ name: '1280', width: 1280, height: 900 }, { name: '375', width: 375, height: 812 }] as const;

async function assertAccessible(page: Page, name: string) {
  assert.equal(await pageOverflowsSideways(page), false, `${name}: no sideways scrolling`);
  await screenshot(page, name);
  assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
}

const downloaded = async (download: Download) => fs.readFileSync((await download.path())!);

/** Shorten on `/` while signed in, the UTM builder, `https://` for a bare host, and the QR code's options. */
describe('web UI: creating well', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  before(async () => { ui = await startUi(suite); });

  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.name} px: signed in, Shorten makes a permanent link with UTM values in the current workspace, and it is on the dashboard`, async () => {
      const context = await ui.newContext(viewport);
      const page = await context.newPage();
      const email = `maker${viewport.name}@example.com`;
      await registerInUi(page, email);
      await page.goto('/');
      assert.match((await page.getByTestId('lead').textContent())!, /permanent and kept in your workspace/);
      assert.doesNotMatch((await page.locator('main').textContent())!, /Register to keep|temporary/);
      await assertAccessible(page, `shorten-signed-in-empty-${viewport.name}`);

      await page.getByLabel('Long URL').fill('example.com/page');
      await page.getByText('UTM parameters').click();
      await page.getByLabel('Source (utm_source)').fill('newsletter');
      await page.getByLabel('Medium (utm_medium)').fill('email');
      await page.getByLabel('Campaign (utm_campaign)').fill('spring sale');
      await page.getByLabel('Custom code (optional)').fill(`spring-${viewport.name}`);
      assert.equal(await page.getByLabel('Long URL').inputValue(), 'https://example.com/page', 'https:// is added once the field is left');
      const final = 'https://example.com/page?utm_source=newsletter&utm_medium=email&utm_campaign=spring+sale';
      assert.equal(await page.getByTestId('final-url').textContent(), `Sends visitors to ${final}`);
      await page.getByRole('button', { name: 'Shorten' }).click();

      const shortUrl = page.getByTestId('short-url');
      await shortUrl.waitFor();
      assert.match((await shortUrl.textContent())!, new RegExp(`/spring-${viewport.name}$`));
      assert.match((await page.getByTestId('link-lifetime').textContent())!, /^Permanent · in Personal/);
      const answer = await fetch((await shortUrl.textContent())!, { redirect: 'manual' });
      assert.equal(answer.headers.get('location'), final);
      await assertAccessible(page, `shorten-signed-in-created-${viewport.name}`);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
      await page.locator(`tr[data-code="spring-${viewport.name}"]`).waitFor();
      const token = await bearerTokenFor(ui.server.baseUrl, email);
      const { items } = await (await fetch(`${ui.server.baseUrl}/api/urls`, { headers: { authorization: `Bearer ${token}` } })).json() as { items: { linkType: string; expiresAt: string | null }[] };
      assert.deepEqual(items.map((link) => [link.linkType, link.expiresAt]), [['PERMANENT', null]]);
      await context.close();
    });
  }

  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.name} px: a link made with 307 from the form redirects with 307, the dashboard's Edit turns it into 308, and its Create a link makes a 302`, async () => {
      const context = await ui.newContext(viewport);
      const page = await context.newPage();
      const email = `redirect${viewport.name}@example.com`;
      const code = `moved-${viewport.name}`;
      await registerInUi(page, email);
      await page.goto('/');
      await page.getByText('Redirect status (optional)').click();
      await page.getByLabel('Redirect', { exact: true }).selectOption({ label: '307 Temporary Redirect' });
      await page.getByLabel('Long URL').fill('https://example.com/moved');
      await page.getByLabel('Custom code (optional)').fill(code);
      await assertAccessible(page, `redirect-status-form-${viewport.name}`);
      await page.getByRole('button', { name: 'Shorten' }).click();
      const shortUrl = (await page.getByTestId('short-url').textContent())!;
      const first = await fetch(shortUrl, { redirect: 'manual' });
      assert.deepEqual([first.status, first.headers.get('location')], [307, 'https://example.com/moved']);
      assert.equal(await page.getByText('Redirect status (optional)').isVisible(), true, 'the form starts over at the default');

      await page.getByRole('link', { name: 'Open its page' }).click();
      assert.equal(await page.getByTestId('redirect-status').textContent(), '307 Temporary Redirect');
      await assertAccessible(page, `redirect-status-link-page-${viewport.name}`);

      await page.getByRole('link', { name: '← All links' }).click();
      await page.locator(`tr[data-code="${code}"]`).getByRole('button', { name: `Edit ${code}` }).click();
      const editForm = page.getByRole('form', { name: `Edit ${code}` });
      assert.equal(await editForm.getByLabel('Redirect', { exact: true }).inputValue(), '307', 'the edit form starts from the link\'s status');
      await editForm.getByLabel('Redirect', { exact: true }).selectOption({ label: '308 Permanent Redirect' });
      await page.emulateMedia({ colorScheme: 'dark' });
      await assertAccessible(page, `redirect-status-edit-dark-${viewport.name}`);
      await editForm.getByRole('button', { name: 'Save' }).click();
      await page.getByText(`Saved ${code}`).waitFor();
      await page.getByText('Create a link').click();
      const createForm = page.locator('details.create');
      await createForm.getByLabel('Destination URL').fill('https://example.com/found');
      await createForm.getByLabel('Custom code (optional)').fill(`found-${viewport.name}`);
      await createForm.getByLabel('Redirect', { exact: true }).selectOption({ label: '302 Found' });
      await createForm.getByRole('button', { name: 'Create link' }).click();
      await page.locator(`tr[data-code="found-${viewport.name}"]`).waitFor();

      const token = await bearerTokenFor(ui.server.baseUrl, email);
      const { items } = await (await fetch(`${ui.server.baseUrl}/api/urls`, { headers: { authorization: `Bearer ${token}` } })).json() as { items: { id: number; shortCode: string; redirectStatus: number | null }[] };
      assert.deepEqual(items.map((link) => [link.shortCode, link.redirectStatus]), [[`found-${viewport.name}`, 302], [code, 308]]);
      const after = await fetch(shortUrl, { redirect: 'manual' });
      assert.equal(after.status, 308);
      await page.goto(`/app/links/${items[1]!.id}`);
      assert.equal(await page.getByTestId('redirect-status').textContent(), '308 Permanent Redirect');
      await assertAccessible(page, `redirect-status-link-page-dark-${viewport.name}`);
      await context.close();
    });
  }

  test('the UTM values are remembered per workspace, across a reload, and the expiry and workspace are honoured', async () => {
    const context = await ui.newContext();
    const page = await context.newPage();
    const email = 'utm@example.com';
    await registerInUi(page, email);
    const token = await bearerTokenFor(ui.server.baseUrl, email);
    const team = await fetch(`${ui.server.baseUrl}/api/v1/workspaces`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ name: 'Team' }),
    });
    assert.equal(team.status, 201);

    await page.goto('/');
    await page.getByText('UTM parameters').click();
    await page.getByLabel('Source (utm_source)').fill('personal-source');
    await page.getByLabel('Workspace').selectOption({ label: 'Team' });
    assert.equal(await page.getByLabel('Source (utm_source)').isVisible() ? await page.getByLabel('Source (utm_source)').inputValue() : '', '', 'Team has none yet');
    await page.getByText('UTM parameters').click();
    await page.getByLabel('Source (utm_source)').fill('team-source');
    await page.getByLabel('Content (utm_content)').fill('footer');

    await page.reload();
    assert.equal(await page.getByLabel('Workspace').inputValue() !== '', true);
    assert.equal(await page.getByLabel('Workspace').getByRole('option', { selected: true }).textContent(), 'Team', 'the chosen workspace is remembered');
    assert.equal(await page.getByLabel('Source (utm_source)').inputValue(), 'team-source', 'open with the remembered values');
    assert.equal(await page.getByLabel('Content (utm_content)').inputValue(), 'footer');
    await page.getByLabel('Workspace').selectOption({ label: 'Personal' });
    assert.equal(await page.getByLabel('Source (utm_source)').inputValue(), 'personal-source');
    await page.getByLabel('Workspace').selectOption({ label: 'Team' });

    await page.getByLabel('Long URL').fill('shop.example/item');
    await page.getByLabel('Expires (optional)').fill('2099-06-01T12:00');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.getByTestId('short-url').waitFor();
    assert.match((await page.getByTestId('link-lifetime').textContent())!, /^Expires .* · in Team/);
    await assertAccessible(page, 'shorten-signed-in-team');
    const { items } = await (await fetch(`${ui.server.baseUrl}/api/urls`, { headers: { authorization: `Bearer ${token}` } })).json() as { items: { originalUrl: string; expiresAt: string }[] };
    assert.equal(items[0]!.originalUrl, 'https://shop.example/item?utm_source=team-source&utm_content=footer');
    assert.equal(items[0]!.expiresAt, new Date(2099, 5, 1, 12, 0).toISOString());
    await context.close();
  });

  test('anonymous Shorten adds https:// too, and a bad URL still gets the API\'s error', async () => {
    const context = await ui.newContext({ width: 375, height: 812 });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByLabel('Long URL').fill('example.com/page');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.getByTestId('short-url').waitFor();
    assert.equal(await page.locator('.result .destination').textContent(), 'https://example.com/page');
    await page.getByLabel('Long URL').fill('ftp://example.com/file');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.locator('#url-error').waitFor();
    await assertAccessible(page, 'shorten-anonymous-error-375');
    await context.close();
  });

  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.name} px: QR options change the code, and PNG and SVG downloads follow them`, async () => {
      const context = await ui.newContext(viewport);
      const page = await context.newPage();
      await page.goto('/');
      await page.getByLabel('Long URL').fill(`https://example.com/qr/${viewport.name}`);
      await page.getByRole('button', { name: 'Shorten' }).click();
      const image = page.getByTestId('qr-image');
      await image.waitFor();
      const before = await image.getAttribute('src');

      await page.getByText('QR code options').click();
      await page.getByLabel('Size (PNG, pixels)').selectOption('512');
      await page.getByLabel('Foreground colour').fill('#1a3f7a');
      await page.getByLabel('Background colour').fill('#fff8e1');
      await page.getByLabel('Margin (modules)').fill('4');
      await page.getByLabel('Error correction').selectOption('H');
      await page.waitForFunction((old) => document.querySelector('[data-testid="qr-image"]')?.getAttribute('src') !== old, before);
      assert.match((await page.getByTestId('qr-contrast').textContent())!, /^Contrast \d+\.\d:1\.$/);
      await assertAccessible(page, `qr-options-${viewport.name}`);

      const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()]);
      const pngBytes = await downloaded(png);
      assert.equal(pngBytes.subarray(1, 4).toString(), 'PNG');
      assert.equal(pngBytes.readUInt32BE(16), 512, 'PNG width');
      assert.match(png.suggestedFilename(), /^[A-Za-z0-9]+\.png$/);
      const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download SVG' }).click()]);
      const svgText = (await downloaded(svg)).toString();
      assert.match(svgText, /^<svg/);
      assert.match(svgText, /#1a3f7a/);
      assert.match(svgText, /#fff8e1/);

      await page.getByLabel('Foreground colour').fill('#eeeeee');
      await page.getByTestId('qr-contrast').filter({ hasText: 'scanners need a dark code' }).waitFor();
      await context.close();
    });
  }

  test('nothing broke the Content-Security-Policy and no page threw', () => {
    assert.deepEqual(ui.problems, []);
  });
});
