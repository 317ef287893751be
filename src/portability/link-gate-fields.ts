import { withOption, type LinkOptions } from '../core/link-options.js';
import { quoted } from './parse-fields.js';

/** A bcrypt hash as bcrypt writes it: the only form a password travels in (never the password itself). */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** `password_hash`: empty or absent (files from before it was exported) is no password. */
export function passwordHashOf(text: string | undefined): string | null {
  const value = text?.trim() ?? '';
  if (value === '') return null;
  if (!BCRYPT_HASH.test(value)) throw new Error('The password hash is not a bcrypt hash.');
  return value;
}

/** `confirm_before_redirect`: true (JSON) or `true` (CSV) turns it on; empty, absent or false leaves it off. */
export function confirmOptionOf(value: unknown, options: LinkOptions | null = null): LinkOptions | null {
  const text = value === undefined || value === null ? '' : String(value).trim().toLowerCase();
  if (text === '' || text === 'false') return options;
  if (text !== 'true') throw new Error(`The confirmation flag ${quoted(text)} is not true or false.`);
  return withOption(options, 'confirmBeforeRedirect', true);
}
