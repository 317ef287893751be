import { LinkforgeError, ValidationError } from '../core/errors.js';
import type { AccountServices } from './account-services.js';
import type { User } from '../core/account-ports.js';
import { isValidEmail, normalizeEmail, passwordProblem } from './password-rules.js';

export const PERSONAL_WORKSPACE_NAME = 'Personal';

export interface SignedIn {
  readonly token: string;
  readonly user: User;
}

export interface Registered extends SignedIn {
  readonly personalWorkspaceId: number;
}

/**
 * A new user with their personal workspace. A duplicate email is caught by the unique index on
 * users.email (emails are stored lower-cased), never by a racy look-up first. An ADMIN_EMAILS
 * address gets the admin role; so does any user an operator creates with `admin`.
 */
export async function registerUser(
  deps: AccountServices, input: { email: string; password: string }, options: { readonly admin?: boolean } = {},
): Promise<Registered> {
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw new ValidationError('email_invalid');
  const problem = passwordProblem(input.password);
  if (problem) throw problem;
  const passwordHash = await deps.hasher.hash(input.password);
  const role = options.admin === true || deps.adminEmails.includes(email) ? 'admin' : 'user';
  const result = await deps.store.createUser({ email, passwordHash, role, createdAt: deps.clock.now() }, PERSONAL_WORKSPACE_NAME);
  if (!result.ok) throw new LinkforgeError('email_taken');
  return { token: await deps.tokens.issue(result.user.id, 0), user: result.user, personalWorkspaceId: result.personalWorkspaceId };
}
