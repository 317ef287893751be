import type { Config } from '../config.js';
import type { Clock } from '../core/ports.js';
import type { AccountStore } from '../core/account-ports.js';
import { loadOrCreateJwtSecret } from './jwt-secret.js';
import { PasswordHasher, type PasswordHashing } from './password-hasher.js';
import { TokenService } from './token-service.js';
import { WorkspaceAccess } from './workspace-access.js';

/** What every accounts use case receives: `deps.accounts`. */
export interface AccountServices {
  readonly store: AccountStore;
  readonly clock: Clock;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly workspaces: WorkspaceAccess;
  /** Lower-cased; these emails are registered with the admin role. */
  readonly adminEmails: readonly string[];
}

/** `hashing` is bcrypt unless given (a test double counting comparisons). */
export async function createAccountServices(config: Config, store: AccountStore, clock: Clock, hashing?: PasswordHashing): Promise<AccountServices> {
  const secret = config.jwt.secret ?? await loadOrCreateJwtSecret(config.dataDir);
  const hasher = new PasswordHasher(config.bcryptCost, { hashing });
  await hasher.prepare();
  return {
    store,
    clock,
    hasher,
    tokens: new TokenService(secret, config.jwt.ttlMs, clock),
    workspaces: new WorkspaceAccess(store),
    adminEmails: config.adminEmails,
  };
}
