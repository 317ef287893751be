import type { VerifiedClaims } from '../core/identity-ports.js';

export type ClaimSource = Readonly<Record<string, unknown>>;

/** A `groups` claim as providers send it: a list of names, or one name. */
function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((group): group is string => typeof group === 'string') : [];
}

/**
 * The claims a sign-in uses, from the verified ID token and the userinfo answer (which wins where
 * both speak). `email_verified` counts only as the boolean true: a provider sending "true" as a
 * string, or nothing, has not said it verified the address.
 */
export function claimsOf(issuer: string, idToken: ClaimSource, userInfo: ClaimSource): VerifiedClaims {
  const claim = (name: string) => userInfo[name] ?? idToken[name];
  const email = claim('email');
  return {
    issuer,
    subject: String(idToken.sub),
    email: typeof email === 'string' ? email : undefined,
    emailVerified: claim('email_verified') === true,
    groups: groupsOf(claim('groups')),
  };
}
