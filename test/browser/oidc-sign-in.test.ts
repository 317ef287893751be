import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { screenshot, seriousAxeViolations, startUi } from './browser-support.js';
import { freePort } from '../support/free-port.js';
import { startTestIdentityProvider, type TestIdentityProvider } from '../support/oidc-provider.js';
import { suiteScope } from '../support/teardown.js';
import { uniqueEmail } from '../support/users.js';

const CLIENT = { OIDC_CLIENT_ID: 'linkforge', OIDC_CLIENT_SECRET: 'browser-test-client-secret' };

/**
 * The server asks the provider only at the first sign-in, so it starts first, told the provider's
 * port; the provider starts next, told the server's callback. The browser uses the server's
 * default BASE_URL (http://localhost:PORT), the origin its redirect URI and cookies belong to.
 */
async function serverAndProvider(scope: Parameters<typeof startUi>[0], env: Record<string, string> = {}) {
  const providerPort = await freePort();
  const ui = await startUi(scope, { OIDC_ISSUER: `http://127.0.0.1:${providerPort}`, ...CLIENT, OIDC_NAME: 'Acme ID', ...env });
  const origin = ui.server.baseUrl.replace('127.0.0.1', 'localhost');
  const provider = await startTestIdentityProvider(scope, {
    port: providerPort, redirectUri: `${origin}/auth/oidc/callback`, clientSecret: CLIENT.OIDC_CLIENT_SECRET,
  });
  return { ui, provider, origin };
}

describe('web UI: sign-in with single sign-on', () => {
  const suite = suiteScope();
  let provider: TestIdentityProvider;
  let context: BrowserContext;
  before(async () => {
    const started = await serverAndProvider(suite);
    provider = started.provider;
    context = await started.ui.browser.newContext({ baseURL: started.origin, viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000); // as browser-support.ts: a shared 2-core machine
  });

  test('"Sign in with Acme ID" leads through the provider\'s login back to the dashboard, signed in', async () => {
    const email = uniqueEmail('browser-sso');
    provider.setAccount('ada', { email, email_verified: true });
    const page = await context.newPage();
    // This context is not the harness's (its origin is localhost), so it watches its own page.
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => { if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text()); });
    await page.goto('/app/login');
    const button = page.getByRole('link', { name: 'Sign in with Acme ID' });
    await button.waitFor();
    assert.equal(await page.getByLabel('Email').count(), 1, 'password sign-in stays beside it');
    await screenshot(page, 'oidc-login-page');
    assert.deepEqual(await seriousAxeViolations(page), []);

    await button.click();
    await page.getByLabel('User name').fill('ada');
    await page.getByRole('button', { name: 'Log in at the provider' }).click();
    await page.waitForURL('**/app/dashboard');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).json() as Promise<{ user: { email: string } }>);
    assert.equal(me.user.email, email);
    await screenshot(page, 'oidc-signed-in-dashboard');
    assert.deepEqual(problems, []);
  });
});

describe('web UI: PASSWORD_LOGIN=false', () => {
  const suite = suiteScope();
  test('the sign-in page shows the single sign-on button and no password form, and offers no registration', async () => {
    const { ui, origin } = await serverAndProvider(suite, { PASSWORD_LOGIN: 'false' });
    const context = await ui.browser.newContext({ baseURL: origin });
    const page = await context.newPage();
    await page.goto('/app/login');
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).waitFor();
    assert.equal(await page.getByLabel('Email').count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Register' }).count(), 0);
    await screenshot(page, 'oidc-login-page-passwords-off');
  });
});
