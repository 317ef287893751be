import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { runCli } from '../support/cli.js';
import { suiteScope } from '../support/teardown.js';

/** DISALLOW_REGISTRATION and DISALLOW_ANONYMOUS_LINKS as a visitor sees them, and a user the administrator made with the CLI. */
describe('web UI on a public instance with registration and anonymous links switched off', () => {
  let ui: UiHarness;
  let page: Page;
  const suite = suiteScope();
  before(async () => {
    ui = await startUi(suite, { DISALLOW_REGISTRATION: 'true', DISALLOW_ANONYMOUS_LINKS: 'true' });
    page = await (await ui.newContext()).newPage();
  });

  test('the home page asks to sign in instead of showing the shorten form, and offers no registration', async () => {
    await page.goto('/');
    const notice = page.getByTestId('sign-in-to-shorten');
    await notice.waitFor();
    assert.match((await notice.textContent())!, /shortens links for signed-in users only\. Sign in to shorten a link\. This instance does not accept new accounts/);
    assert.equal(await page.getByLabel('Long URL').count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Register' }).count(), 0);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'public-instance-home');
  });

  test('the register page says accounts come from the administrator, with no form; the sign-in page does not offer one', async () => {
    await page.goto('/app/register');
    await page.getByTestId('registration-closed').waitFor();
    assert.equal(await page.getByLabel('Email').count(), 0);
    await screenshot(page, 'public-instance-register');
    await page.getByRole('link', { name: 'Sign in' }).first().click();
    await page.waitForURL('**/app/login');
    await page.getByText('Ask this instance\'s administrator to create one for you.').waitFor();
  });

  test('a user the administrator created with the CLI signs in, and the home page shortens into their workspace', async () => {
    const created = await runCli(['user', 'create', 'member@example.com'], { DATA_DIR: ui.server.dataDir, LOG_LEVEL: 'silent', BCRYPT_COST: '4' }, 'correct horse battery\n');
    assert.equal(created.code, 0, created.stderr);
    await page.goto('/app/login');
    await page.getByLabel('Email').fill('member@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/app/dashboard');
    await page.goto('/');
    await page.getByRole('link', { name: 'your dashboard' }).waitFor();
    assert.match((await page.getByTestId('lead').textContent())!, /permanent/);
    assert.equal(await page.getByTestId('sign-in-to-shorten').count(), 0);
    assert.equal(await page.getByLabel('Long URL').count(), 1, 'anonymous links are off, a signed-in user\'s are not');
    assert.deepEqual(ui.problems, []);
  });
});
