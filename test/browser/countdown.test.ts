import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

/** With a short ANON_TTL, the home page's countdown runs to zero and the expired link leaves the list and localStorage. */
describe('web UI: keyboard use, and the countdown reaches zero', () => {
  let ui: UiHarness;

  const suite = suiteScope();
  before(async () => { ui = await startUi(suite, { ANON_TTL: '6s' }); });

  test('the countdown ticks every second down to "Expired"; the link is then dropped from the recent links and from localStorage', async () => {
    const context = await ui.newContext();
    const page = await context.newPage();
    await page.goto('/');
    // The form renders once the page knows whether anyone is signed in: only then is there a field to reach.
    await page.locator('#url').waitFor();
    // Keyboard only: the skip link first, then into the form, Enter submits, Tab reaches the copy button.
    const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await focused(), 'main');
    for (let i = 0; i < 5 && (await focused()) !== 'url'; i++) await page.keyboard.press('Tab');
    assert.equal(await focused(), 'url');
    await page.keyboard.type('https://example.com/soon-gone');
    await page.keyboard.press('Enter');
    await page.getByTestId('short-url').waitFor();
    await page.getByTestId('short-url').focus();
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Copy link');
    await page.keyboard.press('Enter');
    await page.getByText('Copied', { exact: true }).waitFor();
    const countdown = page.locator('.result [data-testid="countdown"]');
    await countdown.waitFor();

    // Read while it ticks: each value it shows is lower than the one before, and it ends at "Expired".
    const shown: string[] = [];
    const deadline = Date.now() + 30_000;
    while (shown.at(-1) !== 'Expired' && Date.now() < deadline) {
      const text = (await countdown.textContent())!;
      if (text !== shown.at(-1)) shown.push(text);
      await page.waitForTimeout(150);
    }
    assert.equal(shown.at(-1), 'Expired', `it reached zero: ${shown.join(', ')}`);
    const seconds = shown.slice(0, -1).map((text) => { const [h, m, s] = text.split(':').map(Number); return h! * 3600 + m! * 60 + s!; });
    assert.ok(seconds.length >= 2, `it ticked: ${shown.join(', ')}`);
    assert.ok(seconds.every((value, i) => i === 0 || value < seconds[i - 1]!), `it only counted down: ${shown.join(', ')}`);
    assert.ok(seconds[0]! <= 7, `it started from ANON_TTL (6 s): ${shown.join(', ')}`);
    assert.equal(await countdown.textContent(), 'Expired');
    await screenshot(page, 'home-expired');
    await page.getByText('Links you shorten here appear in this list until they expire.').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('linkforge.anonymousLinks')), null);
    assert.equal((await fetch(`${ui.server.baseUrl}/${(await page.getByTestId('short-url').textContent())!.split('/').pop()}`, { redirect: 'manual' })).status, 410);
  });
});
