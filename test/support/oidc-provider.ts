import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider, type ProviderContext } from 'oidc-provider';
import { freePort } from './free-port.js';
import { onTeardown, once, type TeardownScope } from './teardown.js';

/** What an account of the test provider says about itself; `sub` is its login name. */
export interface AccountClaims {
  readonly email?: string;
  readonly email_verified?: boolean | string;
  readonly groups?: readonly string[];
}

export interface TestIdentityProvider {
  readonly issuer: string;
  /** OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET for an app that signs in here. */
  readonly env: Record<string, string>;
  /** Sets what the account `login` claims from its next sign-in on (made if new). */
  setAccount(login: string, claims: AccountClaims): void;
  /**
   * A browser's trip through the provider without a browser: follows the authorization URL, logs
   * in as `login` on the login form (an empty one cancels), and answers the URL the provider sends
   * the browser back to.
   */
  logIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

export interface ProviderOptions {
  /** The app's callback, registered as the client's only redirect URI. */
  readonly redirectUri: string;
  /** A port chosen beforehand (the app is started first, knowing the issuer); a free one by default. */
  readonly port?: number;
  /** The client's secret, when the app had to be given it before the provider started; a random one by default. */
  readonly clientSecret?: string;
  /** The issuer the provider names itself: another than the one it is reached at tests a mismatch. */
  readonly issuerName?: (port: number) => string;
}

const SCOPES = 'openid email profile groups';
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A real OpenID Connect provider (oidc-provider) on a loopback port, with one confidential client
 * for the app, PKCE required, a minimal login page of its own (a user name, no password) and no
 * consent step (the grant is given at login, as a first-party provider does). Closed with `scope`.
 */
export async function startTestIdentityProvider(scope: TeardownScope, options: ProviderOptions): Promise<TestIdentityProvider> {
  const port = options.port ?? await freePort();
  const issuer = options.issuerName?.(port) ?? `http://127.0.0.1:${port}`;
  const accounts = new Map<string, AccountClaims>();
  const client = { client_id: 'linkforge', client_secret: options.clientSecret ?? randomBytes(24).toString('base64url') };
  const signingKey = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), use: 'sig', kid: 'test' };
  const provider = new Provider(issuer, {
    clients: [{ ...client, redirect_uris: [options.redirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'], profile: [] },
    scopes: SCOPES.split(' '),
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, id: string) => (accounts.has(id) ? { accountId: id, claims: async () => ({ sub: id, ...accounts.get(id) }) } : undefined),
    async loadExistingGrant(ctx: ProviderContext) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      return grant;
    },
  });
  const handle = provider.callback();
  const server = http.createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    void interaction(provider, req, res).catch((error: unknown) => { res.statusCode = 500; res.end(String(error)); });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const close = once(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  onTeardown(scope, close);
  const reachedAt = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: client.client_id, OIDC_CLIENT_SECRET: client.client_secret },
    setAccount: (login, claims) => { accounts.set(login, claims); },
    logIn: (authorizationUrl, login) => logInWithoutBrowser(reachedAt, authorizationUrl, login),
    close,
  };
}

/** The login page: GET shows a form for the user name, POST signs that account in. */
async function interaction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'POST') {
    let body = '';
    for await (const chunk of req) body += chunk;
    const login = new URLSearchParams(body).get('login') ?? '';
    // No user name: the person cancelled, and the provider says so to the client.
    const result = login === '' ? { error: 'access_denied', error_description: 'the person cancelled' } : { login: { accountId: login } };
    return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><html lang="en"><head><title>Test provider</title></head><body><h1>Test provider (${escapeHtml(details.prompt.name)})</h1>`
    + `<form method="post" action="/interaction/${escapeHtml(details.uid)}"><label>User name <input name="login" autocomplete="off"></label>`
    + '<button type="submit">Log in at the provider</button></form></body></html>');
}

/** Follows the provider's redirects with a cookie jar of its own until one leaves the provider. */
async function logInWithoutBrowser(reachedAt: string, authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin !== reachedAt) return url;
    const isLoginPage = url.pathname.startsWith('/interaction/');
    const response = await fetch(url, {
      method: isLoginPage ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '), ...(isLoginPage && { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: isLoginPage ? new URLSearchParams({ login }).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name); else jar.set(name, value);
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider answered ${response.status} at ${url.pathname}: ${await response.text()}`);
    url = new URL(location, url);
  }
  throw new Error('the provider redirected more than 10 times');
}
