import { randomBytes } from 'node:crypto';
import type { ExternalIdentity, VerifiedClaims } from '../core/identity-ports.js';
import type { UserRole } from '../core/principal.js';
import { LinkforgeError } from '../core/errors.js';
import { isValidEmail, normalizeEmail } from './password-rules.js';
import { PERSONAL_WORKSPACE_NAME, type SignedIn } from './register-user.js';
import type { SingleSignOnServices } from './single-sign-on-services.js';

/**
 * Signs in the account a provider's identity belongs to (ADR 0034): the one linked to its
 * (issuer, subject), else the one with its verified email, else a new one, even when
 * DISALLOW_REGISTRATION closes the password form (the provider decides who may sign in). With
 * OIDC_ADMIN_GROUPS the admin role follows the `groups` claim at every sign-in.
 */
export async function signInWithOidc(deps: SingleSignOnServices, claims: VerifiedClaims): Promise<SignedIn> {
  const identity = { issuer: claims.issuer, subject: claims.subject };
  const userId = await deps.identities.findUserIdByIdentity(identity) ?? await linkByEmail(deps, identity, claims);
  const user = await deps.accounts.store.findUserById(userId);
  if (!user) throw new LinkforgeError('sso_callback_invalid', 'The account of this identity no longer exists; sign in again.');
  if (user.disabledAt !== null) throw new LinkforgeError('account_disabled');
  const role = roleFromGroups(deps, claims, user.email);
  if (role !== undefined && role !== user.role) await deps.identities.setUserRole(user.id, role);
  const { sessionEpoch, ...publicUser } = user;
  return { token: await deps.accounts.tokens.issue(user.id, sessionEpoch), user: { ...publicUser, role: role ?? user.role } };
}

/** ADMIN_EMAILS keep the role too, so the operator who set up the provider cannot lock themselves out. */
function roleFromGroups(deps: SingleSignOnServices, claims: VerifiedClaims, email: string): UserRole | undefined {
  if (deps.adminGroups === undefined) return undefined;
  const isAdmin = claims.groups.some((group) => deps.adminGroups!.includes(group)) || deps.accounts.adminEmails.includes(email);
  return isAdmin ? 'admin' : 'user';
}

/** The first sign-in of an identity: only an address the provider verified may name an account. */
async function linkByEmail(deps: SingleSignOnServices, identity: ExternalIdentity, claims: VerifiedClaims): Promise<number> {
  const email = claims.email === undefined ? '' : normalizeEmail(claims.email);
  if (!claims.emailVerified || !isValidEmail(email)) throw new LinkforgeError('sso_email_unverified');
  const userId = (await deps.accounts.store.findUserByEmail(email))?.id ?? await createAccount(deps, email);
  const linked = await deps.identities.linkIdentity(userId, identity, deps.accounts.clock.now());
  if (linked === 'account_taken') throw new LinkforgeError('sso_account_linked_elsewhere');
  if (linked === 'linked') return userId;
  // Another sign-in of the same identity linked it first.
  return await deps.identities.findUserIdByIdentity(identity) ?? userId;
}

/** A new account with an unknowable password: it signs in through the provider (a password can be set by no route today). */
async function createAccount(deps: SingleSignOnServices, email: string): Promise<number> {
  const { accounts } = deps;
  const passwordHash = await accounts.hasher.hash(randomBytes(32).toString('base64url'));
  const role = accounts.adminEmails.includes(email) ? 'admin' : 'user';
  const result = await accounts.store.createUser({ email, passwordHash, role, createdAt: accounts.clock.now() }, PERSONAL_WORKSPACE_NAME);
  if (result.ok) return result.user.id;
  // Made by a sign-in of the same person a moment ago.
  const existing = await accounts.store.findUserByEmail(email);
  if (!existing) throw new LinkforgeError('email_taken');
  return existing.id;
}
