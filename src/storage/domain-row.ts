import type { Generated } from 'kysely';

/** A workspace's custom domain (migration 026, ADR 0036). */
export interface DomainRow {
  id: Generated<number>;
  workspace_id: number;
  hostname: string;
  status: 'pending' | 'verified';
  verification_token: string;
  verified_at: number | null;
  root_redirect_url: string | null;
  not_found_redirect_url: string | null;
  created_at: number;
}
