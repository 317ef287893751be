import type { Generated } from 'kysely';

/** The OpenID Connect identity an account signs in with (migration 024, ADR 0034); a table of `schema.ts`'s `Database`. */
export interface UserIdentityRow {
  id: Generated<number>;
  user_id: number;
  issuer: string;
  subject: string;
  created_at: number;
}
