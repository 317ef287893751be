import { ValidationError } from '../core/errors.js';

export const MIN_PASSWORD_BYTES = 8;
/** bcrypt reads only the first 72 bytes; a longer password would be silently truncated. */
export const MAX_PASSWORD_BYTES = 72;
const MAX_EMAIL_LENGTH = 254;
const EMAIL_FORMAT = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why a password is refused, or undefined when it is acceptable. Lengths count UTF-8 bytes. */
export function passwordProblem(password: string): ValidationError | undefined {
  const bytes = Buffer.byteLength(password, 'utf8');
  if (password.includes('\0')) {
    return new ValidationError('password_invalid', 'The password must not contain a NUL character.');
  }
  // A lone surrogate encodes as U+FFFD, so two different passwords would hash alike.
  if (LONE_SURROGATE.test(password)) {
    return new ValidationError('password_invalid', 'The password contains an invalid Unicode character.');
  }
  if (bytes < MIN_PASSWORD_BYTES) {
    return new ValidationError('password_too_short',
      `The password must be at least ${MIN_PASSWORD_BYTES} bytes long (it is ${bytes}).`);
  }
  if (bytes > MAX_PASSWORD_BYTES) {
    return new ValidationError('password_too_long',
      `The password must be at most ${MAX_PASSWORD_BYTES} bytes in UTF-8 (it is ${bytes}); it is refused rather than cut short. Characters outside ASCII take 2 to 4 bytes each.`,
      { maxBytes: MAX_PASSWORD_BYTES, bytes });
  }
  return undefined;
}

/** Trimmed and lower-cased, so the unique index on users.email is case-insensitive. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isValidEmail(normalized: string): boolean {
  return normalized.length <= MAX_EMAIL_LENGTH && EMAIL_FORMAT.test(normalized);
}
