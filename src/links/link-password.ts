import { ValidationError } from '../core/errors.js';
import type { PasswordHasher } from '../accounts/password-hasher.js';

/** Characters: a link password guards one link and is shared with its visitors, so it may be short (a PIN). */
export const MIN_LINK_PASSWORD_LENGTH = 4;
/** bcrypt reads only the first 72 bytes: a longer password is refused rather than silently cut short. */
export const MAX_LINK_PASSWORD_BYTES = 72;
const LONE_SURROGATE = /\p{Surrogate}/u;

/** What hashes a link's password: the accounts' bcrypt hasher, with its bounded queue. */
export type LinkPasswordHashing = Pick<PasswordHasher, 'hash'>;

/** Throws a 400 naming `field` when the password breaks a rule. */
export function checkLinkPassword(password: string, field: string): void {
  const length = [...password].length;
  const bytes = Buffer.byteLength(password, 'utf8');
  if (password.includes('\0') || LONE_SURROGATE.test(password)) {
    throw new ValidationError('password_invalid', `${field}: the password contains a NUL or an invalid Unicode character.`, { field });
  }
  if (length < MIN_LINK_PASSWORD_LENGTH) {
    throw new ValidationError('password_too_short', `${field}: the password must be at least ${MIN_LINK_PASSWORD_LENGTH} characters long.`, { field });
  }
  if (bytes > MAX_LINK_PASSWORD_BYTES) {
    throw new ValidationError('password_too_long',
      `${field}: the password must be at most ${MAX_LINK_PASSWORD_BYTES} bytes in UTF-8 (it is ${bytes}); characters outside ASCII take 2 to 4 bytes each.`,
      { field, maxBytes: MAX_LINK_PASSWORD_BYTES, bytes });
  }
}

/** The hash to store: undefined leaves the password as it is, null removes it. Never logged, never answered. */
export async function linkPasswordHashOf(hashing: LinkPasswordHashing, password: string | null | undefined, field: string): Promise<string | null | undefined> {
  if (password === undefined || password === null) return password;
  checkLinkPassword(password, field);
  return hashing.hash(password);
}
