import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { bearerTokenFor, pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/**
 * The link page's CSV export and share control, and the shared stats page a stranger opens without
 * signing in: read-only, no query string, no click counted; revoked, it says so.
 */
describe('web UI: exporting visits and sharing a link\'s stats', () => {
  let ui: UiHarness;
  let owner: Page;
  let token: string;
  let link: { id: number; shortUrl: string };
  const email = `share-${process.pid}@example.test`;

  const suite = suiteScope();
  before(async () => {
    ui = await startUi(suite);
    owner = await (await ui.newContext()).newPage();
    await registerInUi(owner, email);
    token = await bearerTokenFor(ui.server.baseUrl, email);
    const created = await fetch(`${ui.server.baseUrl}/api/urls`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/campaign?utm_source=mail&token=s3cr3t' }),
    });
    link = await created.json() as { id: number; shortUrl: string };
    for (let i = 0; i < 3; i++) {
      await fetch(link.shortUrl.replace(/^https?:\/\/[^/]+/, ui.server.baseUrl), { redirect: 'manual', headers: { 'user-agent': CHROME, referer: 'https://news.example/' } });
    }
    for (let tries = 0; tries < 80 && (await redirectCount()) < 3; tries++) await new Promise((resolve) => setTimeout(resolve, 250));
  });

  async function redirectCount(): Promise<number> {
    const response = await fetch(`${ui.server.baseUrl}/api/urls/${link.id}`, { headers: { authorization: `Bearer ${token}` } });
    return (await response.json() as { redirectCount: number }).redirectCount;
  }

  async function assertLooksRight(page: Page, name: string) {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    assert.equal(await pageOverflowsSideways(page), false, `${name}: no sideways scrolling`);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
  }

  test('the link page exports the range\'s visits as a CSV file', async () => {
    await owner.goto(`/app/links/${link.id}?range=7d`);
    const button = owner.getByRole('link', { name: 'Export visits as CSV' });
    const href = await button.getAttribute('href');
    assert.match(href!, new RegExp(`^/api/urls/${link.id}/visits\\.csv\\?from=`));
    const [download] = await Promise.all([owner.waitForEvent('download'), button.click()]);
    assert.match(download.suggestedFilename(), /^linkforge-visits-.+\.csv$/);
    const lines = fs.readFileSync((await download.path())!, 'utf8').split('\r\n');
    assert.equal(lines[0], 'time,class,country,city,referrer_host,browser,os,device,destination');
    assert.equal(lines.filter((line) => line.includes(',human,')).length, 3);
  });

  test('the owner creates a share link, copies it, and a stranger sees the stats read-only, with nothing counted', async () => {
    await owner.goto(`/app/links/${link.id}`);
    await owner.getByTestId('share-status').getByText('Not shared').waitFor();
    await owner.getByRole('button', { name: 'Create share link' }).click();
    await owner.getByTestId('share-status').getByText('Shared').first().waitFor();
    const shareUrl = await owner.getByTestId('share-url').getByRole('link').getAttribute('href');
    assert.match(shareUrl!, /\/app\/shared\/lfs_[A-Za-z0-9_-]{43}$/);
    await owner.getByRole('button', { name: 'Copy share link' }).click();
    await owner.getByText('Copied').waitFor();
    assert.equal(await owner.evaluate(() => navigator.clipboard.readText()), shareUrl);
    await assertLooksRight(owner, 'share-link-page');
    await owner.emulateMedia({ colorScheme: 'dark' });
    await assertLooksRight(owner, 'share-link-page-dark');
    await owner.emulateMedia({ colorScheme: 'light' });

    const before = await redirectCount();
    for (const [width, scheme] of [[1280, 'light'], [375, 'dark']] as const) {
      const stranger = await (await ui.newContext({ width })).newPage();
      await stranger.emulateMedia({ colorScheme: scheme });
      await stranger.goto(new URL(shareUrl!).pathname);
      await stranger.getByTestId('click-totals').getByText('3 clicks: 3 people').waitFor();
      assert.equal(await stranger.getByTestId('shared-destination').textContent(), 'https://example.com/campaign');
      const text = await stranger.locator('body').textContent();
      assert.ok(!/s3cr3t|utm_source/.test(text!), 'the query string is hidden');
      assert.equal(await stranger.getByRole('button', { name: /share|delete/i }).count(), 0, 'read-only');
      await stranger.getByRole('button', { name: '24 hours' }).click();
      await assertLooksRight(stranger, `shared-stats-${width}-${scheme}`);
      await stranger.context().close();
    }
    assert.equal(await redirectCount(), before, 'viewing the shared page counted no click');
    assert.deepEqual(ui.problems, []);
  });

  test('revoked, the share link says so to whoever opens it', async () => {
    await owner.goto(`/app/links/${link.id}`);
    const shareUrl = await (async () => {
      await owner.getByRole('button', { name: 'Make a new share link' }).click();
      return owner.getByTestId('share-url').getByRole('link').getAttribute('href');
    })();
    await owner.getByRole('button', { name: 'Revoke share link' }).click();
    await owner.getByTestId('share-status').getByText('Not shared').waitFor();
    assert.equal(await owner.getByTestId('share-url').count(), 0);
    const stranger = await (await ui.newContext()).newPage();
    await stranger.goto(new URL(shareUrl!).pathname);
    await stranger.getByText('This share address does not exist or was revoked.').waitFor();
    await assertLooksRight(stranger, 'shared-stats-revoked');
    await stranger.context().close();
  });
});
