import type { UserRole } from './principal.js';

/** An account's identity at an OpenID Connect provider: who it is there, and which provider says so (ADR 0034). */
export interface ExternalIdentity {
  readonly issuer: string;
  readonly subject: string;
}

/** `subject_taken`: another account holds this identity; `account_taken`: this account holds another subject of the issuer. */
export type LinkIdentityResult = 'linked' | 'subject_taken' | 'account_taken';

/** The link from accounts to the provider identities that sign in to them; unique violations come back as values. */
export interface IdentityStore {
  findUserIdByIdentity(identity: ExternalIdentity): Promise<number | undefined>;
  linkIdentity(userId: number, identity: ExternalIdentity, createdAt: number): Promise<LinkIdentityResult>;
  /** Sets the global role (OIDC_ADMIN_GROUPS grants and revokes `admin` at each sign-in). */
  setUserRole(userId: number, role: UserRole): Promise<void>;
}

/** What the provider vouched for in a verified ID token (and userinfo), its signature, issuer, audience and nonce checked. */
export interface VerifiedClaims extends ExternalIdentity {
  readonly email: string | undefined;
  readonly emailVerified: boolean;
  readonly groups: readonly string[];
}

/** What the browser carries between the start of a sign-in and its callback (PKCE, state, nonce). */
export interface SignInChecks {
  readonly codeVerifier: string;
  readonly state: string;
  readonly nonce: string;
}

/**
 * The relying-party side of OpenID Connect's authorization code flow. Both methods throw
 * `sso_provider_unavailable` when the provider cannot be reached, and `finishSignIn` throws
 * `sso_callback_invalid` for an answer that fails a check (state, issuer, code, nonce).
 */
export interface OidcRelyingParty {
  startSignIn(redirectUri: string): Promise<{ readonly url: string; readonly checks: SignInChecks }>;
  finishSignIn(callbackUrl: URL, redirectUri: string, checks: SignInChecks): Promise<VerifiedClaims>;
}
