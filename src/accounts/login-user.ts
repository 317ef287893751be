import { LinkforgeError } from '../core/errors.js';
import type { AccountServices } from './account-services.js';
import { isValidEmail, normalizeEmail, passwordProblem } from './password-rules.js';
import type { SignedIn } from './register-user.js';

/**
 * Unknown email, wrong password and a password that could never have been registered (over 72
 * bytes, NUL) all spend one bcrypt comparison and end in the same error, so neither the answer nor
 * its timing tells whether an account exists. The length rule also keeps a longer password from
 * matching through bcrypt's 72-byte truncation. Only the right password learns that an account is
 * disabled, so the refusal tells nothing to anyone else.
 */
export async function loginUser(deps: AccountServices, input: { email: string; password: string }): Promise<SignedIn> {
  const email = normalizeEmail(input.email);
  const user = isValidEmail(email) ? await deps.store.findUserByEmail(email) : undefined;
  const acceptable = passwordProblem(input.password) === undefined;
  const matches = await deps.hasher.verify(input.password, acceptable ? user?.passwordHash : undefined);
  if (!user || !acceptable || !matches) throw new LinkforgeError('credentials_invalid');
  if (user.disabledAt !== null) throw new LinkforgeError('account_disabled');
  const { passwordHash: _hash, sessionEpoch, ...publicUser } = user;
  return { token: await deps.tokens.issue(user.id, sessionEpoch), user: publicUser };
}
