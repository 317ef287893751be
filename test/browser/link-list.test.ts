import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { pageOverflowsSideways, registerInUi, screenshot, seriousAxeViolations, startUi, type UiHarness } from './browser-support.js';
import { suiteScope } from '../support/teardown.js';

const PASSWORD = 'correct horse battery';
const WIDTHS = [1280, 375] as const;

/**
 * The dashboard's list as a team uses it, at laptop and phone width: a member is offered no
 * change to a colleague's link, every matching link is deleted and brought back in two clicks,
 * and an export goes back in through the import panel into another workspace.
 */
describe('web UI: the link list (permissions, bulk actions, export and import)', () => {
  let ui: UiHarness;
  const suite = suiteScope();
  before(async () => { ui = await startUi(suite); });

  async function call<T>(token: string, method: string, url: string, body?: unknown): Promise<T> {
    const response = await fetch(`${ui.server.baseUrl}${url}`, {
      method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(response.ok, `${method} ${url}: ${response.status} ${await response.clone().text()}`);
    return response.json() as Promise<T>;
  }
  const tokenOf = async (email: string) => (await call<{ token: string }>('', 'POST', '/api/auth/login', { email, password: PASSWORD })).token;
  const register = async (email: string) => (await call<{ token: string }>('', 'POST', '/api/auth/register', { email, password: PASSWORD })).token;
  const createWorkspace = async (token: string, name: string) => (await call<{ id: number }>(token, 'POST', '/api/v1/workspaces', { name })).id;
  const createLink = (token: string, url: string, workspaceId: number) => call<{ id: number; shortCode: string }>(token, 'POST', '/api/urls', { url, workspaceId });

  async function openPage(width: number): Promise<Page> {
    const context = await ui.newContext({ width });
    return context.newPage();
  }

  async function check(page: Page, name: string) {
    await page.waitForLoadState('networkidle');
    await screenshot(page, name);
    assert.deepEqual(await seriousAxeViolations(page), [], `axe-core on ${name}`);
    assert.equal(await pageOverflowsSideways(page), false, `${name} needs no sideways scrolling`);
  }

  for (const width of WIDTHS) {
    test(`${width} px: a member sees no Edit or Delete on a colleague's link, and both on their own`, async () => {
      const page = await openPage(width);
      const owner = await register(`owner-${width}@example.com`);
      const team = await createWorkspace(owner, 'Marketing');
      await registerInUi(page, `member-${width}@example.com`);
      await call(owner, 'POST', `/api/v1/workspaces/${team}/members`, { email: `member-${width}@example.com`, role: 'member' });
      const colleagues = await createLink(owner, `https://example.com/colleague/${width}?utm_source=newsletter&utm_medium=email`, team);
      const own = await createLink(await tokenOf(`member-${width}@example.com`), `https://example.com/own/${width}`, team);

      await page.goto(`/app/dashboard?workspace=${team}`);
      const theirs = page.locator(`tr[data-code="${colleagues.shortCode}"]`);
      const mine = page.locator(`tr[data-code="${own.shortCode}"]`);
      await theirs.waitFor();
      assert.equal(await theirs.getByRole('button', { name: /^(Delete|Edit) / }).count(), 0, 'no Delete or Edit on a colleague\'s link');
      assert.match((await theirs.textContent())!, /View only/);
      assert.match((await theirs.textContent())!, /example\.com\/colleague\/\d+…/, 'host and path, the query string held back');
      await mine.getByRole('button', { name: `Delete ${own.shortCode}` }).waitFor();
      await mine.getByRole('button', { name: `Edit ${own.shortCode}` }).waitFor();
      assert.equal(await page.getByLabel('Show links of').inputValue(), String(team), 'the switcher shows the workspace of the address');
      await check(page, `list-member-${width}`);

      // Selecting the colleague's link offers export but no change, and says why.
      await theirs.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Export CSV' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Delete selected' }).count(), 0);
      await page.getByText('Some selected links were created by someone else').waitFor();
      await check(page, `list-member-selected-${width}`);

      // The colleague's link page says the same: no Delete, and why.
      await page.goto(`/app/links/${colleagues.id}`);
      await page.getByTestId('view-only').waitFor();
      assert.equal(await page.getByRole('button', { name: /^(Delete|Restore) link$/ }).count(), 0);
      await page.goto(`/app/links/${own.id}`);
      await page.getByRole('button', { name: 'Delete link' }).waitFor();
      await page.context().close();
    });

    test(`${width} px: select all matching → bulk delete → undo restores them; page, search and sort survive reload and Back`, async () => {
      const page = await openPage(width);
      const email = `bulk-${width}@example.com`;
      await registerInUi(page, email);
      const token = await tokenOf(email);
      const personal = (await call<{ workspaces: Array<{ id: number; is_personal: boolean }> }>(token, 'GET', '/api/v1/workspaces')).workspaces.find((w) => w.is_personal)!.id;
      for (let i = 0; i < 25; i++) await createLink(token, `https://example.com/campaign/${i}`, personal);
      await createLink(token, 'https://example.org/keep', personal);

      await page.goto('/app/dashboard');
      await page.getByLabel('Search code or destination').fill('campaign');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('1–20 of 25').waitFor();
      // While the next page loads, the first page's rows are gone and the list says it is loading.
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      await page.route(/\/api\/urls\?.*offset=20/, async (route) => { await held; await route.continue(); });
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByTestId('links-loading').waitFor();
      assert.equal(await page.getByTestId('links-region').getAttribute('aria-busy'), 'true');
      assert.equal(await page.locator('table.links tbody tr').count(), 0, 'no rows of page 1 under page 2');
      release();
      await page.getByText('21–25 of 25').waitFor();
      assert.equal(await page.getByTestId('links-region').getAttribute('aria-busy'), 'false');
      await page.unroute(/\/api\/urls\?.*offset=20/);
      assert.match(page.url(), /\?q=campaign&page=2$/);
      if (width === 375) await page.getByLabel('Sort by').selectOption('clicks desc');
      else await page.getByRole('button', { name: 'Clicks' }).click();
      await page.waitForURL(/sort=clicks/);
      await page.reload();
      await page.getByText('1–20 of 25').waitFor();
      assert.equal(await page.getByLabel('Search code or destination').inputValue(), 'campaign', 'reload keeps the search');
      await page.goBack();
      await page.getByText('21–25 of 25').waitFor();
      await page.goBack();
      await page.getByText('1–20 of 25').waitFor();
      assert.match(page.url(), /\?q=campaign$/);
      await check(page, `list-filtered-${width}`);

      await page.getByRole('checkbox', { name: 'Select every link on this page' }).check();
      await page.getByRole('button', { name: 'Select all 25 matching links' }).click();
      await page.getByText('25 selected (all matching)').waitFor();
      await check(page, `list-all-matching-${width}`);
      await page.getByRole('button', { name: 'Delete selected' }).click();
      await page.getByText('Deleted 25 links.').waitFor();
      await page.waitForFunction(() => document.activeElement?.classList.contains('notice'));
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Deleted 25 links. Undo', 'the outcome takes the focus from the bar that went away');
      await page.getByText('No links match.').waitFor({ state: 'detached' }).catch(() => undefined);
      const deleted = await call<{ total: number }>(token, 'GET', '/api/urls?q=campaign&status=DELETED');
      assert.equal(deleted.total, 25);
      await check(page, `list-deleted-${width}`);
      await page.getByRole('button', { name: 'Undo' }).click();
      await page.getByText('Restored 25 links.').waitFor();
      assert.equal((await call<{ total: number }>(token, 'GET', '/api/urls?q=campaign&status=ACTIVE')).total, 25);
      assert.equal((await call<{ total: number }>(token, 'GET', '/api/urls?q=keep&status=ACTIVE')).total, 1, 'a link outside the filter was never touched');
      await page.context().close();
    });

    test(`${width} px: export a selection as CSV and import it into a second workspace with the CLI's report`, async () => {
      const page = await openPage(width);
      const email = `move-${width}@example.com`;
      await registerInUi(page, email);
      const token = await tokenOf(email);
      const first = await createWorkspace(token, 'First');
      const second = await createWorkspace(token, 'Second');
      const links = [];
      for (let i = 0; i < 3; i++) links.push(await createLink(token, `https://example.com/export/${width}/${i}`, first));

      await page.goto(`/app/dashboard?workspace=${first}`);
      await page.getByText('1–3 of 3').waitFor();
      await page.getByRole('checkbox', { name: 'Select every link on this page' }).check();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      assert.equal(download.suggestedFilename(), 'linkforge-links.csv');
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-export-')), 'links.csv');
      await download.saveAs(file);
      const text = fs.readFileSync(file, 'utf8');
      assert.equal(text.trim().split('\n').length, 4, text);
      await page.getByText('Exported 3 links as CSV.').waitFor();

      await page.getByText('Import links').click();
      await page.getByLabel('Into workspace').selectOption(String(second));
      await page.getByLabel('Export file').setInputFiles(file);
      await check(page, `list-import-form-${width}`);
      // The request is held until the progress display has been seen, so that no timing decides the test.
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      let continued!: Promise<void>;
      await page.route('**/imports', (route) => { continued = held.then(() => route.continue()); return continued; }, { times: 1 });
      // Each link keeps its short code, which the first workspace holds: the report says so, row by row.
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.locator('.import-progress progress').waitFor();
      assert.ok(await page.getByRole('button', { name: 'Import', exact: true }).isDisabled(), 'one import at a time');
      assert.equal(await page.locator('form[aria-busy="true"]').count(), 1);
      release();
      await continued;
      const report = page.locator('pre.import-report');
      await report.waitFor();
      assert.match((await report.textContent())!, /^3 rows read as linkforge-csv\n {2}created: {2}0\n {2}existing: 0\n {2}rejected: 3\n {4}row 1 \(\w+\): code_taken: /);
      await check(page, `list-import-report-${width}`);

      // Short codes are unique on the domain, so the same file goes into another workspace once its codes are
      // renamed, as a user copying a campaign would.
      const renamed = text.replace(new RegExp(`(${links.map((l) => l.shortCode).join('|')})`, 'g'), '$1-copy');
      const renamedFile = path.join(path.dirname(file), 'renamed.csv');
      fs.writeFileSync(renamedFile, renamed);
      await page.getByLabel('Export file').setInputFiles(renamedFile);
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.locator('pre.import-report', { hasText: 'created:  3' }).waitFor();
      await page.getByLabel('Show links of').selectOption(String(second));
      await page.waitForURL(new RegExp(`workspace=${second}`));
      await page.getByText('1–3 of 3').waitFor();
      for (const link of links) await page.locator(`tr[data-code="${link.shortCode}-copy"]`).waitFor();
      await check(page, `list-imported-${width}`);

      // Moving the copies back where their URLs already are is refused whole, saying why; to Personal they go.
      await page.getByLabel('Select every link on this page').check();
      await page.getByLabel('Move to').selectOption(String(first));
      await page.getByRole('button', { name: 'Move', exact: true }).click();
      await page.getByText('The workspace already has a link for one of these URLs; nothing was moved.').waitFor();
      assert.equal(await page.getByText('Exported 3 links as CSV.').count(), 0, 'the error replaces the earlier notice');
      await check(page, `list-move-refused-${width}`);
      await page.getByLabel('Move to').selectOption({ label: 'Personal' });
      await page.getByRole('button', { name: 'Move', exact: true }).click();
      await page.getByText('Moved 3 links to Personal.').waitFor();
      await page.getByText('No links match.').waitFor();
      await page.context().close();
    });
  }

  test('nothing broke the Content-Security-Policy and no page threw', () => {
    assert.deepEqual(ui.problems, []);
  });
});
