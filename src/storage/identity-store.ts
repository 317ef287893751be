import type { Kysely } from 'kysely';
import type { ExternalIdentity, IdentityStore, LinkIdentityResult } from '../core/identity-ports.js';
import type { UserRole } from '../core/principal.js';
import type { Database } from './schema.js';
import { isUniqueViolation } from './account-store.js';
import { guarded } from './store-errors.js';

/** `user_identities` (migration 024) for both databases: the insert's unique indexes decide, never a look-up first. */
export class KyselyIdentityStore implements IdentityStore {
  constructor(private readonly db: Kysely<Database>) {}

  findUserIdByIdentity(identity: ExternalIdentity): Promise<number | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('user_identities').select('user_id')
        .where('issuer', '=', identity.issuer).where('subject', '=', identity.subject).executeTakeFirst();
      return row && Number(row.user_id);
    });
  }

  linkIdentity(userId: number, identity: ExternalIdentity, createdAt: number): Promise<LinkIdentityResult> {
    return guarded(async () => {
      try {
        await this.db.insertInto('user_identities')
          .values({ user_id: userId, issuer: identity.issuer, subject: identity.subject, created_at: createdAt }).execute();
        return 'linked';
      } catch (error) {
        if (isUniqueViolation(error, 'user_identities.issuer, user_identities.subject', 'user_identities_subject_key')) return 'subject_taken';
        if (isUniqueViolation(error, 'user_identities.user_id, user_identities.issuer', 'user_identities_user_key')) return 'account_taken';
        throw error;
      }
    });
  }

  setUserRole(userId: number, role: UserRole): Promise<void> {
    return guarded(async () => {
      await this.db.updateTable('users').set({ role }).where('id', '=', userId).execute();
    });
  }
}
