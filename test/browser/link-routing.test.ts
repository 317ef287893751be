import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerTokenFor, pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { CITY_ADDRESSES, writeTestCityDatabase } from '../support/city-database.js';
import { suiteScope } from '../support/teardown.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** ADR 0031 in the browser: routes and variants made in Create a link, refused with the field named, listed on the link page, removed in Edit. */
describe('web UI: routing and A/B split', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  // Behind a proxy on this machine, with a City database: a visit from Berlin matches the route by country.
  before(async () => { ui = await startUi(suite, { TRUST_PROXY: 'loopback', GEOIP_DATABASE: writeTestCityDatabase(suite) }); });

  test('create with a route and two variants, see them on the link page, remove the route in Edit', async () => {
    const context = await ui.newContext({ width: 1280 });
    const page = await context.newPage();
    await registerInUi(page, 'router@example.com');
    await page.locator('details.create > summary').click();
    await page.locator('#new-url').fill('https://example.com/routed');
    const routing = page.locator('#new-routing');
    await routing.getByRole('button', { name: 'Add route' }).click();
    await routing.getByLabel('Countries').fill('de, at');
    await routing.getByLabel('Device').selectOption('ios');
    await routing.getByLabel('URL', { exact: true }).fill('http://10.0.0.1/');
    await routing.getByRole('button', { name: 'Add variant' }).click();
    assert.equal(await routing.getByTestId('variant-row').count(), 2, 'a split starts with two variants');
    await routing.getByLabel('Variant URL').nth(0).fill('https://example.com/a');
    await routing.getByLabel('Weight').nth(0).fill('3');
    await routing.getByLabel('Variant URL').nth(1).fill('https://example.com/b');
    await page.getByRole('button', { name: 'Create link' }).click();
    await routing.locator('.field-error', { hasText: 'routes[0].url' }).waitFor();
    await screenshot(page, 'routing-create-error');
    await routing.getByLabel('URL', { exact: true }).fill('https://example.com/ios-de');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.locator('tbody tr[data-code]').first().waitFor();

    const token = await bearerTokenFor(ui.server.baseUrl, 'router@example.com');
    const links = await (await fetch(`${ui.server.baseUrl}/api/urls`, { headers: { authorization: `Bearer ${token}` } })).json();
    const link = links.items[0];
    assert.deepEqual([link.routes, link.variants], [
      [{ country: ['DE', 'AT'], device: ['ios'], url: 'https://example.com/ios-de' }],
      [{ url: 'https://example.com/a', weight: 3 }, { url: 'https://example.com/b', weight: 1 }],
    ]);
    await page.goto(`/app/links/${link.id}`);
    const summary = page.getByTestId('routing-summary');
    await summary.waitFor();
    assert.deepEqual(await summary.locator('li').allTextContents(), [
      'If country DE, AT and device ios: https://example.com/ios-de',
      'Variant 1 (75 %): https://example.com/a',
      'Variant 2 (25 %): https://example.com/b',
    ]);
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('region', { name: 'Destinations' }).count(), 0, 'no Destinations table before a route or variant served a click');
    await screenshot(page, 'routing-link-page');
    assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core on the link page');

    // Clicks: two from an iPhone in Berlin (the route), two from one address in a desktop browser (one variant, the same all day).
    const visit = (userAgent: string, from: string) => fetch(link.shortUrl.replace(/^https?:\/\/[^/]+/, ui.server.baseUrl), {
      redirect: 'manual', headers: { 'user-agent': userAgent, 'x-forwarded-for': from },
    });
    for (let i = 0; i < 2; i++) await visit(IPHONE, CITY_ADDRESSES.berlin);
    const variantUrl = (await visit(CHROME, '198.51.100.20')).headers.get('location');
    await visit(CHROME, '198.51.100.20');
    // Visits are flushed every second (ANALYTICS_FLUSH_INTERVAL): wait until all four are counted.
    for (let tries = 0; tries < 80; tries++) {
      const stats = await (await fetch(`${ui.server.baseUrl}/api/urls/${link.id}/stats`, { headers: { authorization: `Bearer ${token}` } })).json() as { totals: { total: number } };
      if (stats.totals.total >= 4) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const variantName = variantUrl === 'https://example.com/a' ? 'Variant 1' : 'Variant 2';
    await page.reload();
    const destinations = page.getByRole('region', { name: 'Destinations' });
    await destinations.waitFor();
    assert.deepEqual((await destinations.locator('tbody th').allTextContents()).sort(), [
      'Route 1: https://example.com/ios-de', `${variantName}: ${variantUrl}`,
    ].sort());
    assert.deepEqual(await destinations.locator('tbody td[data-label="People"]').allTextContents(), ['2', '2']);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForLoadState('networkidle');
      await destinations.scrollIntoViewIfNeeded();
      await screenshot(page, `routing-destinations-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core on the link page with its destinations');

    await page.goto('/app/dashboard');
    await page.getByRole('button', { name: /^Edit / }).first().click();
    const edit = page.locator('fieldset[id$="-routing"]');
    assert.equal(await edit.getByLabel('Countries').inputValue(), 'DE, AT');
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'routing-edit');
    assert.deepEqual(await seriousAxeViolations(page), [], 'axe-core on the edit row');
    assert.equal(await pageOverflowsSideways(page), false, 'the edit row needs no sideways scrolling');
    await edit.getByRole('button', { name: 'Remove route' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const after = await (await fetch(`${ui.server.baseUrl}/api/urls/${link.id}`, { headers: { authorization: `Bearer ${token}` } })).json();
    assert.deepEqual([after.routes, after.variants.length], [[], 2]);
    assert.deepEqual(ui.problems, []);
    await context.close();
  });

  test('the signed-in Shorten form takes routes too, and a refused one is shown with its field', async () => {
    const context = await ui.newContext({ width: 390 });
    const page = await context.newPage();
    await registerInUi(page, 'shortener@example.com');
    await page.goto('/');
    await page.locator('#url').fill('https://example.com/from-home');
    await page.getByText('Routing and A/B split (optional)').click();
    const routing = page.locator('#routing');
    await routing.getByRole('button', { name: 'Add route' }).click();
    await routing.getByLabel('Languages').fill('pt');
    await routing.getByLabel('URL', { exact: true }).fill('ftp://example.com/pt');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.getByRole('alert').filter({ hasText: 'routes[0].url' }).waitFor();
    await routing.getByLabel('URL', { exact: true }).fill('https://example.com/pt');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.getByRole('link', { name: 'Open its page' }).click();
    await page.getByTestId('routing-summary').waitFor();
    assert.deepEqual(await page.getByTestId('routing-summary').locator('li').allTextContents(), ['If language pt: https://example.com/pt']);
    await page.waitForLoadState('networkidle');
    assert.equal(await pageOverflowsSideways(page), false, 'the link page needs no sideways scrolling at 390 px');
    assert.deepEqual(ui.problems, []);
    await context.close();
  });
});
