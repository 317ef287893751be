import { Type } from '@sinclair/typebox';
import { MAX_LINK_PASSWORD_BYTES, MIN_LINK_PASSWORD_LENGTH } from '../links/link-password.js';

/** The password and confirmation fields of a link, shared by the app API and v1 (ADR 0031). */
const PASSWORD_RULE = `Write-only: visitors must give this password before the destination is revealed. ${MIN_LINK_PASSWORD_LENGTH} characters to ${MAX_LINK_PASSWORD_BYTES} bytes in UTF-8. Stored as a bcrypt hash and never answered.`;
// The schema's bound only keeps a huge value away from the checks; the use case names the real limits.
export const LinkPassword = Type.String({ maxLength: 200, description: PASSWORD_RULE });
export const LinkPasswordOrNull = Type.Union([LinkPassword, Type.Null()], { description: `${PASSWORD_RULE} null removes the password.` });
export const ConfirmBeforeRedirect = Type.Boolean({
  description: 'Visitors get a one-button page; only its submission counts as a visit and redirects (for one-time links that email scanners fetch without consuming).',
});
export const HasPassword = Type.Boolean({ description: 'Whether visitors must give a password (set with `password`).' });
