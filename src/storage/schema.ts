import type { Generated } from 'kysely';

/**
 * Row types, snake_case as stored. Times are epoch milliseconds (bigint in PostgreSQL, integer in
 * SQLite) so that both databases compare and sort them the same way. Booleans are 0/1 integers.
 */
export interface LinkRow {
  id: Generated<number>;
  domain: string;
  code: string;
  original_url: string;
  normalized_url: string;
  link_type: 'TEMPORARY' | 'PERMANENT';
  status: 'ACTIVE' | 'EXPIRED' | 'DELETED';
  workspace_id: number | null;
  owner_id: number | null;
  claim_token_hash: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  deleted_at: number | null;
  redirect_count: Generated<number>;
  avg_redirect_ms: Generated<number>;
  destination_status: number | null;
  last_checked_at: number | null;
}

export interface LinkArchiveRow extends Omit<LinkRow, 'id' | 'redirect_count' | 'avg_redirect_ms'> {
  id: number;
  redirect_count: number;
  avg_redirect_ms: number;
  archived_at: number;
}

export interface UserRow {
  id: Generated<number>;
  email: string;
  password_hash: string;
  role: 'user' | 'admin';
  created_at: number;
}

export interface WorkspaceRow {
  id: Generated<number>;
  name: string;
  is_personal: number;
  created_by: number | null;
  created_at: number;
}

export interface WorkspaceMemberRow {
  workspace_id: number;
  user_id: number;
  role: 'owner' | 'admin' | 'member';
  created_at: number;
}

export interface ApiKeyRow {
  id: Generated<number>;
  workspace_id: number;
  name: string;
  prefix: string;
  secret_hash: string;
  created_by: number | null;
  created_at: number;
  last_used_at: number | null;
}

export interface ShedlockRow {
  name: string;
  lock_until: number;
  locked_at: number;
  locked_by: string;
}

export interface CleanupRunRow {
  id: Generated<number>;
  instance: string;
  started_at: number;
  finished_at: number | null;
  status: 'running' | 'succeeded' | 'failed';
  marked_expired: number;
  purged: number;
  archived: number;
  batches: number;
  last_batch_size: number;
  duration_ms: number | null;
  error: string | null;
}

export interface VisitRow {
  id: Generated<number>;
  link_id: number;
  visited_at: number;
  referrer_host: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  is_bot: number;
}

export interface GlobalStatsRow {
  id: number;
  total_redirects: number;
  avg_latency_ms: number;
}

export interface Database {
  links: LinkRow;
  links_archive: LinkArchiveRow;
  users: UserRow;
  workspaces: WorkspaceRow;
  workspace_members: WorkspaceMemberRow;
  api_keys: ApiKeyRow;
  shedlock: ShedlockRow;
  cleanup_runs: CleanupRunRow;
  visits: VisitRow;
  global_stats: GlobalStatsRow;
}
