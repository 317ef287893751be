import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { registerOverHttp } from '../support/server-process.js';
import { suiteScope } from '../support/teardown.js';

/** WCAG's contrast ratio of two `rgb(r, g, b)` colours as getComputedStyle spells them. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = rgb.match(/\d+(\.\d+)?/g)!.slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The theme's colours resolved by the browser: a custom property's value as a computed `rgb(…)`. */
async function themeColour(page: Page, property: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, property);
}

/**
 * What a link's recipient sees when the link goes nowhere (styled, no script, only a link home), the
 * dark theme, the focus ring's contrast, and the first load of `/` (compressed, no chart or QR
 * library). At 1280 and 375 px, axe-clean.
 */
describe('web UI: recipient pages, dark mode, focus ring, lean first load', () => {
  let ui: UiHarness;
  let deletedCode: string;

  const suite = suiteScope();
  before(async () => {
    ui = await startUi(suite);
    const token = await registerOverHttp(ui.server);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await (await fetch(`${ui.server.baseUrl}/api/urls`, { method: 'POST', headers: auth, body: JSON.stringify({ url: 'https://example.com/gone' }) })).json() as { id: number; shortCode: string };
    assert.equal((await fetch(`${ui.server.baseUrl}/api/urls/${created.id}`, { method: 'DELETE', headers: { authorization: auth.authorization } })).status, 204);
    deletedCode = created.shortCode;
  });

  async function assertAccessible(page: Page, name: string) {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    assert.equal(await pageOverflowsSideways(page), false, `${name}: no sideways scrolling`);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
  }

  for (const width of [1280, 375]) {
    test(`at ${width} px: the not-found and deleted pages wear the product's styles, say what happened, and link only home`, async () => {
      const context = await ui.newContext({ width, height: width === 375 ? 812 : 900 });
      const page = await context.newPage();
      for (const [path, status, heading] of [['/NoSuchCode42', 404, 'This link does not exist'], [`/${deletedCode}`, 410, 'This link was deleted']] as const) {
        const response = await page.goto(path);
        assert.equal(response!.status(), status, path);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        assert.match(await page.evaluate(() => getComputedStyle(document.body).fontFamily), /system-ui/, `${path}: the product's font, not the browser's serif`);
        assert.equal(await page.locator('.card').evaluate((card) => getComputedStyle(card).borderRadius), '8px', `${path}: in a card`);
        assert.deepEqual(await page.locator('a').evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute('href')))]), ['/'], `${path}: no link into pages that need a session`);
        assert.equal(await page.locator('script').count(), 0);
        await assertAccessible(page, `look-${status === 404 ? 'not-found' : 'deleted'}-${width}`);
      }
      await context.close();
    });

    test(`at ${width} px: dark mode follows prefers-color-scheme on the UI and the recipient pages, axe-clean`, async () => {
      const context = await ui.newContext({ width, height: width === 375 ? 812 : 900 });
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto('/');
      await page.getByRole('heading', { name: 'Shorten a link' }).waitFor();
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(17, 20, 24)');
      await assertAccessible(page, `look-dark-home-${width}`);
      await registerInUi(page, `dark-${width}-${process.pid}@example.test`);
      await assertAccessible(page, `look-dark-dashboard-${width}`);
      await page.goto('/NoSuchCode43');
      assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(17, 20, 24)');
      await assertAccessible(page, `look-dark-not-found-${width}`);
      await context.close();
    });
  }

  test('the focus ring has at least 3:1 contrast against the page and the cards, light and dark', async () => {
    const context = await ui.newContext();
    const page = await context.newPage();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/');
      await page.getByRole('heading', { name: 'Shorten a link' }).waitFor();
      await page.keyboard.press('Tab');
      const ring = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return { colour: style.outlineColor, width: parseFloat(style.outlineWidth), style: style.outlineStyle };
      });
      assert.equal(ring.style, 'solid', scheme);
      assert.ok(ring.width >= 2, `${scheme}: ${ring.width}px`);
      for (const surface of ['--bg', '--card']) {
        const ratio = contrast(ring.colour, await themeColour(page, surface));
        assert.ok(ratio >= 3, `${scheme}: the ring ${ring.colour} on ${surface} is ${ratio.toFixed(2)}:1`);
      }
    }
    await context.close();
  });

  for (const width of [1280, 375]) {
    test(`at ${width} px: the first load of / sends under 40 KB of compressed JavaScript, without the chart or QR library`, async () => {
      const context = await ui.newContext({ width, height: 800 });
      const page = await context.newPage();
      const pending: Promise<{ url: string; encoding: string | undefined; bytes: number }>[] = [];
      page.on('requestfinished', (request) => {
        if (request.resourceType() !== 'script') return;
        pending.push(Promise.all([request.response(), request.sizes()]).then(([response, sizes]) => (
          { url: request.url(), encoding: response?.headers()['content-encoding'], bytes: sizes.responseBodySize })));
      });
      await page.goto('/');
      await page.getByRole('heading', { name: 'Shorten a link' }).waitFor();
      await page.waitForLoadState('networkidle');
      const scripts = await Promise.all(pending);
      assert.ok(scripts.length > 0);
      for (const script of scripts) {
        assert.ok(script.encoding === 'br' || script.encoding === 'gzip', `${script.url} sent ${script.encoding ?? 'uncompressed'}`);
        assert.doesNotMatch(script.url, /clicks-plot|qrcode/, 'the chart and QR libraries wait for a page that needs them');
      }
      const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
      assert.ok(total < 40 * 1024, `${total} bytes of JavaScript`);
      await context.close();
    });
  }

  test('nothing broke the Content-Security-Policy and no page threw', () => {
    assert.deepEqual(ui.problems, []);
  });
});
