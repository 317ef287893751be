import type * as OpenidClient from 'openid-client';
import type { OidcSettings } from '../config-shape.js';
import { LinkforgeError } from '../core/errors.js';
import type { OidcRelyingParty, SignInChecks, VerifiedClaims } from '../core/identity-ports.js';
import { claimsOf, type ClaimSource } from './verified-claims.js';

const PROVIDER_TIMEOUT_SECONDS = 10;

/** Loaded at the first sign-in, not at start-up: the library is ~1 MiB of code an instance without sign-ins never runs (ADR 0020). */
let loaded: Promise<typeof OpenidClient> | undefined;
const openidClient = () => (loaded ??= import('openid-client'));

/** Whether an error means the provider could not be asked (network, timeout, its own 5xx), not that it said no. */
function isUnreachable(error: unknown, client: typeof OpenidClient): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (['TypeError', 'AbortError', 'TimeoutError'].includes(cause.name)) return true;
    if (cause instanceof client.ResponseBodyError && cause.status >= 500) return true;
  }
  return false;
}

/**
 * The authorization code flow with PKCE, state and nonce, by openid-client (ADR 0034): the
 * certified library checks the ID token's signature, issuer, audience, expiry and nonce, and the
 * callback's `iss` (RFC 9207) against OIDC_ISSUER. Discovery happens at the first sign-in, not at
 * start-up, so a provider that is down delays sign-ins (503) and never the server; a failed
 * discovery is tried again at the next one.
 */
export class OpenidClientRelyingParty implements OidcRelyingParty {
  private configuration: Promise<OpenidClient.Configuration> | undefined;

  constructor(private readonly settings: OidcSettings, private readonly onProviderError: (error: unknown) => void) {}

  async startSignIn(redirectUri: string): Promise<{ url: string; checks: SignInChecks }> {
    const [client, configuration] = await Promise.all([openidClient(), this.discovered()]);
    const checks = { codeVerifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      // `groups` is no standard scope: asked for only when OIDC_ADMIN_GROUPS needs the claim.
      scope: this.settings.adminGroups ? 'openid email profile groups' : 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
    return { url: url.href, checks };
  }

  async finishSignIn(callbackUrl: URL, redirectUri: string, checks: SignInChecks): Promise<VerifiedClaims> {
    const [client, configuration] = await Promise.all([openidClient(), this.discovered()]);
    const tokens = await this.asked(() => client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true,
    }, { redirect_uri: redirectUri }));
    const idToken = tokens.claims()!;
    // Many providers put email and groups in userinfo only; its `sub` must be the ID token's.
    const userInfo = await this.asked(() => client.fetchUserInfo(configuration, tokens.access_token, idToken.sub));
    return claimsOf(this.settings.issuer, idToken as ClaimSource, userInfo as ClaimSource);
  }

  private discovered(): Promise<OpenidClient.Configuration> {
    this.configuration ??= this.asked((client) => client.discovery(
      new URL(this.settings.issuer), this.settings.clientId, undefined, client.ClientSecretBasic(this.settings.clientSecret),
      { timeout: PROVIDER_TIMEOUT_SECONDS, ...(this.settings.loopbackHttp && { execute: [client.allowInsecureRequests] }) },
    )).catch((error: unknown) => {
      this.configuration = undefined;
      // A discovery document naming another issuer is a misconfiguration: nobody can sign in until it is fixed.
      throw error instanceof LinkforgeError ? new LinkforgeError('sso_provider_unavailable') : error;
    });
    return this.configuration;
  }

  private async asked<T>(step: (client: typeof OpenidClient) => Promise<T>): Promise<T> {
    const client = await openidClient();
    try {
      return await step(client);
    } catch (error) {
      this.onProviderError(error);
      if (isUnreachable(error, client)) throw new LinkforgeError('sso_provider_unavailable');
      // The provider's own refusal (the person cancelled, or may not use this client) is told as it said it.
      if (error instanceof client.AuthorizationResponseError) {
        throw new LinkforgeError('sso_callback_invalid', `The sign-in provider refused the sign-in (${error.error}${error.error_description ? `: ${error.error_description}` : ''}); start signing in again.`);
      }
      throw new LinkforgeError('sso_callback_invalid');
    }
  }
}
