import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bearerTokenFor, pageOverflowsSideways, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const PASSWORD = 'correct horse battery';
const VIEWPORTS = [{ name: '1280', width: 1280, height: 900 }, { name: '375', width: 375, height: 812 }] as const;

/**
 * The session lives in an HttpOnly cookie: a signed-out deep link shows the sign-in form in place
 * and opens once signed in; new tabs and reloads keep the session; signing out ends it everywhere.
 */
describe('web UI: sessions that survive a new tab, and no blank page', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  before(async () => { ui = await startUi(suite); });

  async function registerWithLink(email: string): Promise<number> {
    const registered = await fetch(`${ui.server.baseUrl}/api/auth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }),
    });
    assert.equal(registered.status, 201);
    const token = await bearerTokenFor(ui.server.baseUrl, email);
    const created = await fetch(`${ui.server.baseUrl}/api/urls`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: 'https://example.com/deep/link', customCode: `deep-${email.split('@')[0]}` }),
    });
    assert.equal(created.status, 201);
    return ((await created.json()) as { id: number }).id;
  }

  async function assertAccessible(page: Page, name: string) {
    assert.equal(await pageOverflowsSideways(page), false, `${name}: no sideways scrolling`);
    await screenshot(page, name);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
  }

  async function signInInPlace(page: Page, email: string) {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.name} px: a signed-out deep link shows the sign-in form in place, and signing in opens that page`, async () => {
      const email = `deep${viewport.name}@example.com`;
      const id = await registerWithLink(email);
      const context = await ui.newContext(viewport);
      const page = await context.newPage();
      for (const [name, path] of [['dashboard', '/app/dashboard'], ['link', `/app/links/${id}`], ['workspaces', '/app/workspaces']] as const) {
        await page.goto(path);
        await page.getByTestId('sign-in-in-place').waitFor();
        assert.equal(new URL(page.url()).pathname, path, 'the address stays');
        assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Sign in');
        assert.equal(await page.getByRole('navigation', { name: 'Main' }).isVisible(), true, 'the header is there');
        await assertAccessible(page, `session-signed-out-${name}-${viewport.name}`);
      }

      await page.goto(`/app/links/${id}`);
      await signInInPlace(page, email);
      await page.getByRole('heading', { level: 1, name: `Link deep-deep${viewport.name}` }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/app/links/${id}`);
      await assertAccessible(page, `session-returned-${viewport.name}`);
      assert.equal(await page.evaluate(() => document.cookie.includes('linkforge_session')), false, 'no script can read the session');
      await context.close();
    });

    test(`at ${viewport.name} px: a new tab and a reload keep the session; signing out ends it in every tab and browser`, async () => {
      const email = `tabs${viewport.name}@example.com`;
      await registerWithLink(email);
      const context = await ui.newContext(viewport);
      const first = await context.newPage();
      await first.goto(`/app/login?next=${encodeURIComponent('/app/workspaces')}`);
      await signInInPlace(first, email);
      await first.waitForURL('**/app/workspaces');
      await first.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();

      const second = await context.newPage();
      await second.goto('/app/dashboard');
      await second.getByRole('heading', { level: 1, name: 'Your links' }).waitFor();
      await assertAccessible(second, `session-new-tab-${viewport.name}`);
      await second.reload();
      await second.getByRole('heading', { level: 1, name: 'Your links' }).waitFor();

      const otherBrowser = await ui.newContext(viewport);
      const elsewhere = await otherBrowser.newPage();
      await elsewhere.goto('/app/dashboard');
      await signInInPlace(elsewhere, email);
      await elsewhere.getByRole('heading', { level: 1, name: 'Your links' }).waitFor();

      await second.getByRole('button', { name: 'Sign out' }).click();
      await second.waitForURL((url) => url.pathname === '/');
      await first.getByTestId('sign-in-in-place').waitFor(); // the other tab heard it at once
      await elsewhere.reload();
      await elsewhere.getByTestId('sign-in-in-place').waitFor(); // the server refuses the other browser's session
      assert.equal(new URL(elsewhere.url()).pathname, '/app/dashboard');
      await assertAccessible(elsewhere, `session-signed-out-elsewhere-${viewport.name}`);
      await otherBrowser.close();
      await context.close();
    });
  }

  test('nothing broke the Content-Security-Policy and no page threw', () => {
    assert.deepEqual(ui.problems, []);
  });
});
