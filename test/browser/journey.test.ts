import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { bearerTokenFor, pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

/**
 * The whole journey of docs/web-ui.md in a real browser against a real server process:
 * shorten anonymously, register, see the links synced, manage them on the dashboard, open a
 * link's page, delete and restore it. Every page passes axe-core and is kept as a screenshot.
 */
describe('web UI: anonymous shorten → register → sync → dashboard → link page → delete → restore', () => {
  let ui: UiHarness;
  let context: BrowserContext;
  let page: Page;

  const suite = suiteScope();
  before(async () => {
    ui = await startUi(suite);
    context = await ui.newContext();
    page = await context.newPage();
  });

  async function assertAccessible(name: string) {
    await screenshot(page, name);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
  }

  async function showOnDashboard(code: string) {
    await page.goto('/app/dashboard');
    await page.getByLabel('Search code or destination').fill(code);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.locator(`tr[data-code="${code}"]`).waitFor();
  }

  test('the home page shortens a link: short URL, copy button, QR code (PNG and SVG), live countdown, recent list', async () => {
    await page.goto('/');
    assert.equal(await page.title(), 'Shorten a link · Linkforge');
    await assertAccessible('home-empty');

    await page.getByLabel('Long URL').fill('not a url');
    await page.getByRole('button', { name: 'Shorten' }).click();
    const urlError = page.locator('#url-error');
    await urlError.waitFor();
    assert.equal(await page.getByLabel('Long URL').getAttribute('aria-invalid'), 'true', 'the error is tied to its field');

    await page.getByLabel('Long URL').fill('https://example.com/a/very/long/path?utm=1');
    await page.getByRole('button', { name: 'Shorten' }).click();
    const shortUrl = page.getByTestId('short-url');
    await shortUrl.waitFor();
    const href = (await shortUrl.textContent())!;
    assert.match(href, /^http:\/\/(127\.0\.0\.1|localhost):\d+\/[A-Za-z0-9]+$/);
    assert.equal(await urlError.count(), 0, 'the error is gone once the input is good');

    // The short link really redirects.
    const answer = await fetch(href, { redirect: 'manual' });
    assert.equal(answer.headers.get('location'), 'https://example.com/a/very/long/path?utm=1');

    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), href);

    const png = await page.getByRole('link', { name: 'Download PNG' }).getAttribute('href');
    const svg = await page.getByRole('link', { name: 'Download SVG' }).getAttribute('href');
    assert.match(png!, /^data:image\/png;base64,/);
    assert.match(decodeURIComponent(svg!), /^data:image\/svg\+xml;charset=utf-8,<svg /);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download SVG' }).click();
    assert.match((await download).suggestedFilename(), /^[A-Za-z0-9]+\.svg$/);
    assert.ok(await page.getByRole('img', { name: `QR code for ${href}` }).first().isVisible());

    const countdown = page.getByTestId('countdown').first();
    const first = await countdown.textContent();
    assert.match(first!, /^[78]:\d\d:\d\d$/, 'eight hours, counting down');
    await page.waitForFunction((before) => document.querySelector('[data-testid="countdown"]')?.textContent !== before, first);

    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('linkforge.anonymousLinks') ?? '[]'));
    assert.equal(stored.length, 1);
    assert.deepEqual(Object.keys(stored[0]).sort(), ['claimToken', 'expiresAt', 'shortCode', 'url'], 'the shape /api/urls/sync takes');

    await page.getByLabel('Long URL').fill('https://example.org/second');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.getByTestId('recent-links').locator('li').nth(1).waitFor();
    await page.reload();
    // The list is drawn from localStorage once the page's script has run: wait for it, then count.
    await page.getByTestId('recent-links').locator('li').nth(1).waitFor();
    assert.equal(await page.getByTestId('recent-links').locator('li').count(), 2, 'the recent links survive a reload');
    await assertAccessible('home');
  });

  test('registering shows inline errors, then syncs the anonymous links, shows each outcome and forgets them', async () => {
    await page.goto('/app/register');
    await assertAccessible('register');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('#email-error').waitFor();
    assert.equal(await page.locator('#password-error').textContent(), 'Enter a password.');

    await page.getByLabel('Email').fill('journey@example.com');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.locator('#password-error').filter({ hasText: /at least 8/ }).waitFor();
    assert.equal(await page.locator('#email-error').count(), 0);

    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/app/dashboard');
    const report = page.locator('.sync-report li');
    await report.first().waitFor();
    assert.equal(await report.count(), 2);
    for (const text of await report.allTextContents()) assert.match(text, /moved to your account/);
    assert.equal(await page.evaluate(() => localStorage.getItem('linkforge.anonymousLinks')), null, 'localStorage is cleared of them');
    assert.ok(!page.url().includes('token') && !page.url().includes('eyJ'), 'the token is never in a URL');
    await page.locator('table.links tbody tr').nth(1).waitFor();
    assert.equal(await page.locator('table.links tbody tr').count(), 2);
  });

  test('the dashboard creates (custom code, expiry), edits, searches, filters and pages through links', async () => {
    await page.getByText('Create a link').click();
    await page.getByLabel('Destination URL').fill('https://example.net/docs');
    await page.getByLabel('Custom code (optional)').fill('app');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.locator('#new-code-error').waitFor();
    assert.match((await page.locator('#new-code-error').textContent())!, /reserved/i);

    await page.getByLabel('Custom code (optional)').fill('team-docs');
    await page.getByLabel('Expires (optional)').fill('2099-01-01T12:00');
    await page.getByRole('button', { name: 'Create link' }).click();
    const row = page.locator('tr[data-code="team-docs"]');
    await row.waitFor();
    assert.match((await row.textContent())!, /https:\/\/example\.net\/docs/);
    assert.match((await row.textContent())!, /ACTIVE/);
    assert.match((await row.getByRole('cell').nth(5).textContent())!, /^0\s+by people; 0 in the last 14 days$/, 'clicks by people, with their trend');
    assert.match((await row.textContent())!, /never/, 'no click yet');
    await assertAccessible('dashboard');

    await row.getByRole('button', { name: 'Edit team-docs' }).click();
    await page.getByLabel('Destination URL', { exact: true }).last().fill('https://example.net/docs/v2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved team-docs').waitFor();
    await page.locator('tr[data-code="team-docs"]', { hasText: 'https://example.net/docs/v2' }).waitFor();

    await page.getByLabel('Search code or destination').fill('example.org');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table.links tbody tr').length === 1);
    assert.match((await page.locator('table.links tbody').textContent())!, /example\.org\/second/);

    await page.getByLabel('Search code or destination').fill('');
    await page.getByLabel('Status').selectOption('DELETED');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No links match.').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table.links tbody tr').length === 3);
  });

  test('pagination walks the list page by page', async () => {
    const token = await bearerTokenFor(ui.server.baseUrl, 'journey@example.com');
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${ui.server.baseUrl}/api/urls`, {
        method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: `https://example.com/page/${i}` }),
      });
      assert.equal(response.status, 201);
    }
    await page.reload();
    await page.locator('table.links tbody tr').nth(19).waitFor();
    assert.equal(await page.locator('table.links tbody tr').count(), 20);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table.links tbody tr').length === 3);
    assert.ok(await page.getByRole('button', { name: 'Next page' }).isDisabled());
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table.links tbody tr').length === 20);
  });

  test('the link page shows the clicks chart, the breakdowns and the QR code; delete and restore from it', async () => {
    await showOnDashboard('team-docs');
    // A click by a person and one by a crawler, before opening the page.
    await fetch(`${ui.server.baseUrl}/team-docs`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', referer: 'https://news.example/' } });
    await fetch(`${ui.server.baseUrl}/team-docs`, { redirect: 'manual', headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } });
    // Visits are flushed to the database every second (ANALYTICS_FLUSH_INTERVAL): wait until both are counted.
    const token = await bearerTokenFor(ui.server.baseUrl, 'journey@example.com');
    const counted = async (clicks: number) => {
      for (let tries = 0; tries < 60; tries++) {
        const { items } = await (await fetch(`${ui.server.baseUrl}/api/urls?q=team-docs`, { headers: { authorization: `Bearer ${token}` } })).json() as { items: { redirectCount: number }[] };
        if (items[0]!.redirectCount >= clicks) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    await counted(2);
    // Then 120 people from 120 sites: the day keeps 100 referrers (news.example and 99 of these), the rest are folded.
    for (let i = 0; i < 120; i++) {
      await fetch(`${ui.server.baseUrl}/team-docs`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0', referer: `https://site${i}.example/` } });
    }
    await counted(122);
    await page.getByRole('link', { name: 'Details of team-docs' }).click();
    await page.waitForURL(/\/app\/links\/\d+$/);
    await page.getByRole('heading', { name: 'Link team-docs' }).waitFor();
    await page.locator('.chart canvas').first().waitFor();
    for (const caption of ['Referrers', 'Browsers', 'Operating systems', 'Devices']) {
      assert.ok(await page.locator('caption', { hasText: caption }).isVisible(), caption);
    }
    assert.equal(await page.getByTestId('click-totals').textContent(), '122 clicks: 121 people (2 unique visitors), 1 bots, 0 link previews',
      'the 120 clicks of one address and browser are one visitor');
    assert.ok(await page.getByRole('rowheader', { name: 'news.example' }).isVisible(), 'the referrer of the person');
    const others = page.getByRole('row', { name: /^All others/ });
    assert.equal(await others.locator('td').first().textContent(), '21', 'the 21 referrers past the 100 a day keeps, as one row');
    assert.ok(await page.getByRole('rowheader', { name: 'Chrome' }).isVisible(), 'their browser');
    assert.ok(await page.getByRole('img', { name: /QR code for http/ }).isVisible());
    await assertAccessible('link-page');

    await page.getByRole('button', { name: 'Delete link' }).click();
    await page.getByText('Link deleted.', { exact: false }).waitFor();
    assert.equal(await page.getByTestId('link-status').textContent(), 'DELETED');
    assert.equal((await fetch(`${ui.server.baseUrl}/team-docs`, { redirect: 'manual' })).status, 410);

    await page.getByRole('button', { name: 'Restore link' }).click();
    await page.getByText('Link restored.').waitFor();
    assert.equal(await page.getByTestId('link-status').textContent(), 'ACTIVE');
    assert.equal((await fetch(`${ui.server.baseUrl}/team-docs`, { redirect: 'manual' })).status, 302, 'redirects again (302: it has an expiry)');
  });

  test('delete and restore from the dashboard row; the failure pages and the API docs lead back into the UI', async () => {
    await showOnDashboard('team-docs');
    const row = page.locator('tr[data-code="team-docs"]');
    await row.getByRole('button', { name: 'Delete team-docs' }).click();
    await page.getByText('Deleted team-docs').waitFor();
    await page.locator('tr[data-code="team-docs"]').getByRole('button', { name: 'Restore team-docs' }).click();
    await page.getByText('Restored team-docs').waitFor();

    await page.goto('/no-such-code');
    await assertAccessible('not-found');
    await page.getByRole('link', { name: 'Shorten a link' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Shorten a link' }).waitFor();

    await page.goto('/docs');
    assert.equal(await page.getByRole('link', { name: 'Back to the Linkforge web UI' }).getAttribute('href'), '/');
  });

  test('the pages are usable at 375 px: no sideways scrolling, no serious axe violation', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    const token = await bearerTokenFor(ui.server.baseUrl, 'journey@example.com');
    const list = await (await fetch(`${ui.server.baseUrl}/api/urls?q=team-docs`, { headers: { authorization: `Bearer ${token}` } })).json() as { items: { id: number }[] };
    const id = list.items[0]!.id;
    for (const [name, path] of [['home', '/'], ['login', '/app/login'], ['dashboard', '/app/dashboard'], ['link-page', `/app/links/${id}`], ['workspaces', '/app/workspaces']] as const) {
      await page.goto(path);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      assert.equal(await pageOverflowsSideways(page), false, `${name} at 375 px`);
      await screenshot(page, `375px-${name}`);
      assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name} at 375 px`);
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/app/dashboard');
    await page.getByTestId('sign-in-in-place').waitFor();
    assert.equal(new URL(page.url()).pathname, '/app/dashboard', 'signed out, the page asks to sign in where it is');
  });

  test('nothing broke the Content-Security-Policy and no page threw', () => {
    assert.deepEqual(ui.problems, []);
  });
});
