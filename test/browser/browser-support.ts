import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureUiBuilt } from '../../scripts/build-ui.mjs';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { onTeardown, once, type TeardownScope } from '../support/teardown.js';

/**
 * Chromium from Debian (.ci/run installs it when missing). There is no skip: a missing browser
 * fails these tests, as a missing database fails the others.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Screenshots of every page the tests visit, kept as an artifact (ignored by git). */
export const ARTIFACTS_DIR = path.resolve('test-artifacts', 'screenshots');
const AXE_SOURCE = fs.readFileSync(path.resolve('node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface UiHarness {
  readonly server: ServerProcess;
  readonly browser: Browser;
  /** A fresh browser profile (its own localStorage and sessionStorage) on the server. */
  newContext(options?: { width?: number; height?: number }): Promise<BrowserContext>;
  /** Every Content-Security-Policy violation and uncaught page error seen so far, in any page. */
  readonly problems: string[];
  close(): Promise<void>;
}

/** A real server process (tsx src/main.ts, temporary data directory, free port) and headless Chromium, closed when `scope` ends. */
export async function startUi(scope: TeardownScope, env: Record<string, string> = {}): Promise<UiHarness> {
  await ensureUiBuilt();
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install -y chromium (.ci/run does it)`);
  const server = await startServer(scope, { RATE_LIMIT_ANON: '1000', RATE_LIMIT_AUTH: '1000', ...env });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const closeBrowser = once(() => browser.close());
  onTeardown(scope, closeBrowser);
  const problems: string[] = [];
  return {
    server,
    browser,
    problems,
    async newContext({ width = 1280, height = 900 } = {}) {
      const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width, height } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
      context.setDefaultTimeout(20_000); // generous: npm test runs two files at once on a shared 2-core machine
      context.on('page', (page) => watch(page, problems));
      return context;
    },
    async close() {
      await closeBrowser();
      await server.stop();
    },
  };
}

function watch(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  page.on('dialog', (dialog) => { problems.push(`${page.url()}: a dialog opened: ${dialog.message()}`); void dialog.dismiss(); });
}

export interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }

/**
 * axe-core's serious and critical violations on the page as it is now. The script is evaluated
 * through the DevTools protocol, which the page's CSP does not govern (a <script> tag would be refused).
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
}

/** Registers through the UI (and so syncs this browser's anonymous links); lands on the dashboard. */
export async function registerInUi(page: Page, email: string, password = 'correct horse battery'): Promise<void> {
  await page.goto('/app/register');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/app/dashboard');
}

/**
 * A bearer token for a user the browser signed up, for a test's own API calls: the browser's token
 * lives in an HttpOnly cookie no script can read. Signing in again leaves the browser's session alone.
 */
export async function bearerTokenFor(baseUrl: string, email: string, password = 'correct horse battery'): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email} answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

/** The document is no wider than the viewport: nothing needs sideways scrolling at phone width. */
export async function pageOverflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
