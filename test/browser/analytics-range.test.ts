import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bearerTokenFor, pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { writeTestCityDatabase } from '../support/city-database.js';
import { suiteScope } from '../support/teardown.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';
const PREVIEW = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
/** Addresses the test City database (and the bundled DB-IP Lite one) places in London, England and in the Netherlands. */
const GB = '81.2.69.142';
const NL = '193.0.6.139';

/** `YYYY-MM-DD` in the browser's zone (the test and the browser share the machine's). */
const localDay = (ms: number) => {
  const date = new Date(ms);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};

/**
 * The link page's analytics: the range picker (24 h, 7 d, 30 d, 90 d, custom) changes the stats
 * request and the chart (hours up to 48 h, days beyond), breakdowns show shares with bars, the chart
 * has a table behind it, and people, bots and previews stay apart. At 1280 and 375 px, axe-clean.
 */
describe('web UI: the analytics range picker', () => {
  let ui: UiHarness;
  let page: Page;
  let linkId: number;
  const requests: string[] = [];

  const suite = suiteScope();
  before(async () => {
    // Behind a proxy on this machine, so that the visits below come from addresses of known places.
    ui = await startUi(suite, { TRUST_PROXY: 'loopback', GEOIP_DATABASE: writeTestCityDatabase(suite) });
    const context = await ui.newContext();
    page = await context.newPage();
    page.on('request', (request) => { if (request.url().includes('/stats?')) requests.push(request.url()); });
    await registerInUi(page, `range-${process.pid}@example.test`);
    const token = await bearerTokenFor(ui.server.baseUrl, `range-${process.pid}@example.test`);
    const created = await fetch(`${ui.server.baseUrl}/api/urls`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/range' }),
    });
    const link = await created.json() as { id: number; shortUrl: string };
    linkId = link.id;
    const visit = (userAgent: string, referer?: string, from = GB) => fetch(link.shortUrl.replace(/^https?:\/\/[^/]+/, ui.server.baseUrl), {
      redirect: 'manual', headers: { 'user-agent': userAgent, 'x-forwarded-for': from, ...(referer ? { referer } : {}) },
    });
    for (let i = 0; i < 3; i++) await visit(CHROME, 'https://news.example/');
    await visit(CHROME, undefined, NL);
    await visit(BOT);
    await visit(PREVIEW);
    // Visits are flushed every second (ANALYTICS_FLUSH_INTERVAL): wait until all six are counted.
    for (let tries = 0; tries < 80; tries++) {
      const stats = await (await fetch(`${ui.server.baseUrl}/api/urls/${linkId}/stats`, { headers: { authorization: `Bearer ${token}` } })).json() as { totals: { total: number } };
      if (stats.totals.total >= 6) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  async function assertAccessible(name: string) {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    assert.equal(await pageOverflowsSideways(page), false, `${name}: no sideways scrolling`);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
  }

  /** Does `act`, then answers the stats request it made and waits until the chart shows its answer. */
  async function pick(act: () => Promise<void>): Promise<URL> {
    const before = requests.length;
    const answered = page.waitForResponse((response) => response.url().includes('/stats?'));
    await act();
    await answered;
    await page.waitForFunction(() => document.querySelector('[data-testid="clicks-body"]')?.getAttribute('aria-busy') === 'false');
    assert.equal(requests.length, before + 1, 'one stats request per choice');
    return new URL(requests.at(-1)!);
  }

  async function chartPoints(): Promise<{ points: number; rows: number; label: string }> {
    const chart = page.getByTestId('clicks-chart');
    return {
      points: Number(await chart.getAttribute('data-points')),
      rows: await page.locator('[data-testid="clicks-table"] tbody tr').count(),
      label: (await chart.getAttribute('aria-label'))!,
    };
  }

  for (const width of [1280, 375]) {
    test(`at ${width} px: presets and a custom range change the request (from, to, interval) and the chart`, async () => {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      requests.length = 0;
      await page.goto(`/app/links/${linkId}`);
      await page.locator('.chart canvas').first().waitFor();
      const first = new URL(requests.at(-1)!);
      assert.equal(first.searchParams.get('interval'), 'day', 'thirty days by default, in days');
      assert.ok(Math.abs(Date.now() - 30 * DAY - Date.parse(first.searchParams.get('from')!)) < HOUR);
      assert.equal(await page.getByRole('button', { name: '30 days', exact: true }).getAttribute('aria-pressed'), 'true');
      assert.equal(await page.getByTestId('click-totals').textContent(), '6 clicks: 4 people (2 unique visitors), 1 bots, 1 link previews', 'one browser from two addresses: two people');
      await assertAccessible(`look-range-30d-${width}`);

      const day = await pick(() => page.getByRole('button', { name: '24 hours', exact: true }).click());
      assert.equal(day.searchParams.get('interval'), 'hour');
      assert.ok(Math.abs(Date.now() - DAY - Date.parse(day.searchParams.get('from')!)) < HOUR);
      let chart = await chartPoints();
      assert.ok(chart.points >= 24 && chart.points <= 25, `hourly points: ${chart.points}`);
      assert.equal(chart.rows, chart.points, 'the table behind the chart has a row per point');
      assert.match(chart.label, /^Clicks per hour: 6 in total, 4 by people, 2 unique visitors/);
      assert.equal(new URL(page.url()).search, '?range=24h', 'the range is in the address');
      assert.equal(await page.getByRole('button', { name: '24 hours', exact: true }).getAttribute('aria-pressed'), 'true');
      await assertAccessible(`look-range-24h-${width}`);

      const quarter = await pick(() => page.getByRole('button', { name: '90 days', exact: true }).click());
      assert.equal(quarter.searchParams.get('interval'), 'day');
      chart = await chartPoints();
      assert.ok(chart.points >= 90 && chart.points <= 91, `daily points: ${chart.points}`);
      assert.match(chart.label, /^Clicks per day/);

      await page.getByRole('button', { name: 'Custom' }).click();
      await page.getByLabel('First day').fill(localDay(Date.now() - DAY));
      await page.getByLabel('Last day').fill(localDay(Date.now()));
      const twoDays = await pick(() => page.getByRole('button', { name: 'Show' }).click());
      assert.equal(twoDays.searchParams.get('interval'), 'hour', 'two days: hours');
      assert.equal(Date.parse(twoDays.searchParams.get('to')!) - Date.parse(twoDays.searchParams.get('from')!), 2 * DAY);
      assert.equal((await chartPoints()).points, 48);

      await page.getByLabel('First day').fill(localDay(Date.now() - 9 * DAY));
      const tenDays = await pick(() => page.getByRole('button', { name: 'Show' }).click());
      assert.equal(tenDays.searchParams.get('interval'), 'day', 'beyond two days: days');
      const points = (await chartPoints()).points;
      assert.ok(points >= 10 && points <= 11, `ten local days in UTC days: ${points}`);
      await assertAccessible(`look-range-custom-${width}`);

      const count = requests.length;
      await page.getByLabel('First day').fill(localDay(Date.now() + DAY));
      await page.getByRole('button', { name: 'Show' }).click();
      await page.getByRole('alert').filter({ hasText: 'The first day must not be after the last day.' }).waitFor();
      assert.equal(requests.length, count, 'no request for a range that is not one');

      await page.reload();
      await page.locator('.chart canvas').first().waitFor();
      assert.equal(await page.getByRole('button', { name: 'Custom' }).getAttribute('aria-pressed'), 'true', 'a reload keeps the range');
      assert.equal((await chartPoints()).rows, points);
    });

    test(`at ${width} px: breakdowns show each value's share with a bar; people, bots and previews stay apart`, async () => {
      await page.goto(`/app/links/${linkId}?range=7d`);
      await page.locator('.chart canvas').first().waitFor();
      const referrer = page.getByRole('row', { name: /news\.example/ });
      assert.deepEqual(await referrer.locator('td').allTextContents(), ['3', '0', '0', '3', '50%'], 'people, bots, previews, all, share of 6');
      assert.equal(await referrer.locator('.bar > span').evaluate((bar) => bar.style.width), '50%');
      const headers = await page.locator('table.breakdown').first().locator('thead th').allTextContents();
      assert.deepEqual(headers, ['Referrer', 'People', 'Bots', 'Previews', 'All', 'Share']);
      const tableHeaders = await page.locator('[data-testid="clicks-table"] thead th').allTextContents();
      assert.deepEqual(tableHeaders, ['Day', 'People', 'Unique visitors', 'Bots', 'Previews', 'All']);
      const legend = await page.locator('.u-legend .u-label').allTextContents();
      assert.deepEqual(legend.slice(1), ['People', 'Unique visitors', 'Bots', 'Previews'], 'after the time');
      const countries = page.getByRole('region', { name: 'Countries' });
      assert.deepEqual(await countries.getByRole('row', { name: /United Kingdom/ }).locator('td').allTextContents(), ['3', '1', '1', '5', '83%'], 'the visits from 81.2.69.142');
      assert.match((await countries.getByRole('row', { name: /Netherlands/ }).textContent())!, /🇳🇱/);
      const cities = page.getByRole('region', { name: 'Cities' });
      assert.deepEqual(await cities.locator('thead th').first().textContent(), 'City');
      const london = cities.getByRole('row', { name: /London, England/ });
      assert.deepEqual(await london.locator('td').allTextContents(), ['3', '1', '1', '5', '83%'], 'the city of 81.2.69.142; the Netherlands\' address has none');
      assert.match((await london.textContent())!, /🇬🇧/);
      await page.getByRole('link', { name: 'IP Geolocation by DB-IP' }).waitFor();
      await assertAccessible(`look-breakdowns-${width}`);

      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      await page.locator('.chart canvas').first().waitFor();
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(17, 20, 24)');
      await assertAccessible(`look-dark-link-page-${width}`);
      await page.emulateMedia({ colorScheme: 'light' });
    });
  }

  for (const width of [1280, 375]) {
    test(`at ${width} px: while a range loads the chart is marked busy; an error replaces a success notice`, async () => {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto(`/app/links/${linkId}?range=30d`);
      await page.locator('.chart canvas').first().waitFor();
      // Hold the next stats answer until the busy state has been seen: no race, no timer.
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      await page.route('**/stats?*', async (route) => { await held; await route.continue(); });
      await page.getByRole('button', { name: '7 days', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('[data-testid="clicks-body"]')?.getAttribute('aria-busy') === 'true');
      await screenshot(page, `look-loading-${width}`);
      assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core while loading');
      release();
      await page.waitForFunction(() => document.querySelector('[data-testid="clicks-body"]')?.getAttribute('aria-busy') === 'false');
      assert.ok(['7', '8'].includes((await page.getByTestId('clicks-chart').getAttribute('data-points'))!), 'seven days, in UTC days');
      await page.unroute('**/stats?*');

      await page.getByRole('button', { name: 'Delete link' }).click();
      await page.getByText('Link deleted.', { exact: false }).waitFor();
      await page.route('**/restore', (route) => route.fulfill({
        status: 503, contentType: 'application/problem+json', headers: { 'retry-after': '5' },
        body: JSON.stringify({ type: 'about:blank', title: 'Service unavailable', status: 503, detail: 'The database cannot be reached right now.', code: 'store_unavailable' }),
      }));
      await page.getByRole('button', { name: 'Restore link' }).click();
      await page.getByRole('alert').filter({ hasText: 'The database cannot be reached right now.' }).waitFor();
      assert.equal(await page.getByText('Link deleted.', { exact: false }).count(), 0, 'the success notice is gone with the error');
      await page.unroute('**/restore');
      await page.getByRole('button', { name: 'Restore link' }).click();
      await page.getByText('Link restored.').waitFor();
      assert.equal(await page.getByRole('alert').count(), 0, 'and the error is gone with the next success');
    });
  }

  test('nothing broke the Content-Security-Policy (the bars\' widths included) and no page threw', () => {
    assert.deepEqual(ui.problems, [], 'no CSP violation and no page error');
  });
});
