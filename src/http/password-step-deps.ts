import type { IncomingMessage } from 'node:http';
import type { PasswordHasher } from '../accounts/password-hasher.js';
import type { Clock } from '../core/ports.js';
import type { PasswordStepDeps } from './link-gate-steps.js';
import { UnlockCookie } from './link-unlock-cookie.js';
import { PasswordAttemptLimit } from './password-attempt-limit.js';

/** Wrong passwords a client may try per link and minute before the page answers 429. */
export const WRONG_PASSWORDS_PER_MINUTE = 5;

export interface PasswordStepParts {
  /** The accounts' bcrypt hasher: bounded, 503 past its queue. */
  readonly hasher: Pick<PasswordHasher, 'verify'>;
  /** The unlock cookie's key, of its own purpose (TokenService.keyFor). */
  readonly unlockKey: Buffer;
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly clientOf: (req: IncomingMessage) => string;
}

export function passwordStepDeps(parts: PasswordStepParts): Omit<PasswordStepDeps, 'stylesheet'> {
  return {
    verify: (password, hash) => parts.hasher.verify(password, hash),
    cookie: new UnlockCookie({ key: parts.unlockKey, secure: parts.baseUrl.startsWith('https:') }),
    attempts: new PasswordAttemptLimit(WRONG_PASSWORDS_PER_MINUTE, parts.clock),
    clientOf: parts.clientOf,
  };
}
