import type { IdentityStore, OidcRelyingParty } from '../core/identity-ports.js';
import type { AccountServices } from './account-services.js';

/** What sign-in through an OpenID Connect provider receives (`deps.singleSignOn`, present when OIDC_* is set). */
export interface SingleSignOnServices {
  readonly accounts: AccountServices;
  readonly identities: IdentityStore;
  readonly relyingParty: OidcRelyingParty;
  /** The button says "Sign in with {name}". */
  readonly name: string;
  /** See `OidcSettings.adminGroups`. */
  readonly adminGroups: readonly string[] | undefined;
}
