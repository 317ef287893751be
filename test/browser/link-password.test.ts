import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { registerOverHttp } from '../support/server-process.js';
import { suiteScope } from '../support/teardown.js';


/**
 * The password and confirmation pages a link's visitor sees (ADR 0031), in light and dark: styled,
 * script-free, axe-clean, and their forms lead to the destination: a page of the server itself, so
 * that no request leaves the machine.
 */
describe('web UI: the password and confirmation pages', () => {
  let ui: UiHarness;
  let passwordCode: string;
  let confirmCode: string;
  let destination: string;

  const suite = suiteScope();
  before(async () => {
    ui = await startUi(suite, { ALLOW_PRIVATE_DESTINATIONS: 'true' });
    destination = `${ui.server.baseUrl}/healthz`;
    const token = await registerOverHttp(ui.server);
    const create = async (body: Record<string, unknown>) => {
      const response = await fetch(`${ui.server.baseUrl}/api/urls`, {
        method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
      });
      assert.equal(response.status, 201);
      return ((await response.json()) as { shortCode: string }).shortCode;
    };
    passwordCode = await create({ url: destination, password: 'let me in' });
    confirmCode = await create({ url: `${destination}?once`, confirmBeforeRedirect: true });
  });

  async function assertLooksRight(page: Page, name: string): Promise<void> {
    assert.match(await page.evaluate(() => getComputedStyle(document.body).fontFamily), /system-ui/, `${name}: the product's stylesheet is applied`);
    assert.equal(await page.locator('script').count(), 0);
    assert.ok(!(await page.content()).includes(destination), `${name}: the destination is not on the page`);
    await screenshot(page, name);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
  }

  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme}: a wrong password shows the error, the right one leads on, and the cookie lets a reload through`, async () => {
      const context = await ui.newContext();
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      const shown = await page.goto(`/${passwordCode}`);
      assert.equal(shown!.status(), 200);
      await page.getByRole('heading', { level: 1, name: 'This link is password protected' }).waitFor();
      await assertLooksRight(page, `link-password-${scheme}`);
      await page.getByLabel('Password').fill('not it');
      await page.getByRole('button', { name: 'Open the link' }).click();
      await page.getByRole('alert').filter({ hasText: 'That is not the password' }).waitFor();
      await assertLooksRight(page, `link-password-wrong-${scheme}`);
      await page.getByLabel('Password').fill('let me in');
      await page.getByRole('button', { name: 'Open the link' }).click();
      await page.waitForURL(destination);
      assert.match(String(await page.textContent('body')), /ok/i);
      await page.goto(`/${passwordCode}`);
      await page.waitForURL(destination);
      assert.deepEqual(ui.problems, []);
      await context.close();
    });

    test(`${scheme}: the confirmation page's one button leads on`, async () => {
      const context = await ui.newContext({ width: 375, height: 812 });
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`/${confirmCode}`);
      await page.getByRole('heading', { level: 1, name: 'Continue to the link?' }).waitFor();
      await assertLooksRight(page, `link-confirm-${scheme}`);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${destination}?once`);
      assert.deepEqual(ui.problems, []);
      await context.close();
    });
  }
});
