import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { bearerTokenFor, pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const ADMINS = ['operator-1280@example.com', 'operator-375@example.com'];
const REASON = 'Reported as phishing <script>';

/** The operator's page in a real browser, at laptop and phone width: only a site admin sees it. */
describe('web UI: the operator\'s page /app/admin', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-admin-ui-'));
    fs.writeFileSync(path.join(dir, 'blocklist.txt'), 'evil.example\nphish.example\nmalware.test\n');
    ui = await startUi(suite, { ADMIN_EMAILS: ADMINS.join(','), BLOCKLIST_FILE: path.join(dir, 'blocklist.txt'), CLEANUP_LOCK_AT_LEAST: '0' });
  });

  async function expectClean(page: Page, state: string) {
    assert.deepEqual(await seriousAxeViolations(page), [], `axe: ${state}`);
    assert.deepEqual(ui.problems, [], `CSP or page errors: ${state}`);
  }

  async function expectNotFound(page: Page, state: string) {
    await page.goto('/app/admin');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Overview' }).count(), 0, state);
    assert.equal(await page.getByRole('link', { name: 'Admin' }).count(), 0, `${state}: no Admin entry in the navigation`);
    await expectClean(page, state);
  }

  for (const [index, width] of [1280, 375].entries()) {
    test(`at ${width} px: signed out and a member get not-found; the admin disables a link, a user, runs cleanup, reads the blocklist`, async () => {
      const height = width === 375 ? 812 : 900;
      const visitor = await (await ui.newContext({ width, height })).newPage();
      await expectNotFound(visitor, 'signed out');
      await screenshot(visitor, `admin-not-found-${width}`);

      const memberEmail = `member-${width}@example.com`;
      const member = await (await ui.newContext({ width, height })).newPage();
      await registerInUi(member, memberEmail);
      const token = await bearerTokenFor(ui.server.baseUrl, memberEmail);
      const created = await member.evaluate(async ([bearer, url]) => {
        const response = await fetch('/api/urls', { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
        return (await response.json()) as { shortCode: string; shortUrl: string };
      }, [token, `https://example.com/reported-${width}`] as const);
      await expectNotFound(member, 'a member');

      const page = await (await ui.newContext({ width, height })).newPage();
      await registerInUi(page, ADMINS[index]!);
      await page.getByRole('link', { name: 'Admin' }).click();
      await page.waitForURL('**/app/admin');
      await page.getByRole('heading', { level: 1, name: 'Admin' }).waitFor();
      await page.locator('.admin-tiles dd').first().waitFor();
      await page.locator('#admin-reaper table').waitFor();
      await page.getByText('3 domains').waitFor();
      if (width === 375) assert.equal(await pageOverflowsSideways(page), false, 'no sideways scrolling at phone width');
      await expectClean(page, 'the admin page');
      await screenshot(page, `admin-overview-${width}`);

      // Any link by its short URL; disable it with a reason; its redirect is a 410 page with that reason.
      await page.getByLabel('Short code or short URL').fill(created.shortUrl);
      await page.getByRole('button', { name: 'Look up' }).click();
      const card = page.getByTestId('admin-link');
      await card.getByText(memberEmail).waitFor();
      await page.getByRole('button', { name: 'Disable link' }).click();
      await page.locator('#disable-reason-error').waitFor();
      await page.getByLabel(/^Reason/).fill(REASON);
      await page.getByRole('button', { name: 'Disable link' }).click();
      await page.getByRole('status').filter({ hasText: 'is disabled' }).waitFor();
      await card.getByText(REASON).waitFor();
      await expectClean(page, 'a disabled link');
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, `admin-link-disabled-${width}`);
      const gone = await visitor.goto(`/${created.shortCode}`);
      assert.equal(gone?.status(), 410);
      await visitor.getByRole('heading', { name: 'This link was disabled' }).waitFor();
      await visitor.getByText(`Reason given: ${REASON}`).waitFor();
      await screenshot(visitor, `admin-disabled-link-410-${width}`);

      // The user: found by email, disabled (their session ends at its next request), enabled again.
      await page.getByLabel('Search by email').fill(`MEMBER-${width}`);
      await page.getByRole('button', { name: 'Search' }).first().click();
      const row = page.locator('#admin-users tbody tr', { hasText: memberEmail });
      // The search's answer replaces the whole list: one row left.
      await page.waitForFunction(() => document.querySelectorAll('#admin-users tbody tr').length === 1);
      await row.waitFor();
      await page.getByRole('button', { name: `Disable ${memberEmail}` }).click();
      await row.getByText('disabled').waitFor();
      await expectClean(page, 'a disabled user');
      await screenshot(page, `admin-users-${width}`);
      await member.goto('/app/dashboard');
      await member.getByTestId('sign-in-in-place').waitFor();
      await page.getByRole('button', { name: `Enable ${memberEmail}` }).click();
      await page.getByRole('button', { name: `Disable ${memberEmail}` }).waitFor();

      // Cleanup now, and the run in the table; the blocklist searched.
      await page.getByRole('button', { name: 'Run cleanup now' }).click();
      await page.getByRole('status').filter({ hasText: 'Cleanup finished' }).waitFor();
      await page.locator('#admin-reaper tbody tr .run-succeeded').first().waitFor();
      await page.getByLabel('Search the blocklist').fill('phish');
      await page.locator('#admin-blocklist button').click();
      await page.waitForFunction(() => document.querySelectorAll('.admin-domains li').length === 1);
      await page.locator('.admin-domains li', { hasText: 'phish.example' }).waitFor();
      await expectClean(page, 'after cleanup and a blocklist search');
    });
  }
});
