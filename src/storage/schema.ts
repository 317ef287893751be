import type { Generated } from 'kysely';
import type { BreakdownDimension } from '../core/visit-ports.js';
import type { UserIdentityRow } from './user-identity-row.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './webhook-rows.js';
import type { DomainRow } from './domain-row.js';

/** Row types, snake_case as stored; times in epoch ms (bigint in PostgreSQL, integer in SQLite, sorted alike); booleans 0/1. */
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
  human_count: Generated<number>;
  bot_count: Generated<number>;
  preview_count: Generated<number>;
  destination_status: number | null;
  last_checked_at: number | null;
  /** Set while the service's operator has disabled the link (migration 014). */
  disabled_at: number | null;
  disabled_reason: string | null;
  disabled_by: number | null;
  /** The link's own redirect status, or null for the instance's rule (migration 020). */
  redirect_status: number | null;
  /** The link's options as JSON, or null for none (migration 021). */
  options: string | null;
  /** bcrypt hash of the link's password, or null. */
  password_hash: string | null;
  max_clicks: number | null;
  clicks_left: number | null;
}

export interface LinkArchiveRow extends Omit<LinkRow, 'id' | 'redirect_count' | 'avg_redirect_ms' | 'human_count' | 'bot_count' | 'preview_count'> {
  id: number;
  redirect_count: number;
  avg_redirect_ms: number;
  human_count: number;
  bot_count: number;
  preview_count: number;
  archived_at: number;
}

export interface UserRow {
  id: Generated<number>;
  email: string;
  password_hash: string;
  role: 'user' | 'admin';
  created_at: number;
  /** Set while the service's operator has disabled the account (migration 014). */
  disabled_at: number | null;
  /** Raised by one at every sign-out; a session token carrying another number is refused. */
  session_epoch: Generated<number>;
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
  /** Space-separated (core/api-key-scopes.ts). */
  scopes: string;
  expires_at: number | null;
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
  visits_deleted: Generated<number>;
  duration_ms: number | null;
  error: string | null;
}

export interface VisitRow {
  id: Generated<number>;
  link_id: number;
  visited_at: number;
  /** The visit's class, referrer host, browser, OS and device: a `visit_facts` row (migration 009). */
  facts_id: number;
  latency_ms: number;
}

/** Each distinct set of visit facts once; NULL is an unknown value. */
export interface VisitFactsRow {
  id: Generated<number>;
  visitor_class: 'human' | 'bot' | 'preview';
  referrer_host: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  /** ISO 3166-1 alpha-2 (migration 015). */
  country: string | null;
  /** English names, from a City database (migration 016). */
  region: string | null;
  city: string | null;
  /** The route or variant that served the visit, `route:0` or `variant:1` (migration 022); NULL for the link's own URL. */
  destination: string | null;
  /** The latest `visited_at` of a visit pointing here (migration 010): the reaper's test for "no visit left". */
  last_used_at: number;
}

/**
 * Where one link's visit rows are (migration 008, ADR 0016): every visit of `link_id` in this flush
 * has an id from `first_id` to `last_id`. Rows of other links may lie between on PostgreSQL (two
 * instances flushing at once), so a reader also matches `visits.link_id`. Stands in for an index on
 * visits.link_id, which cost the writer a B-tree entry per visit; a range costs one per link and flush.
 */
export interface VisitRangeRow {
  link_id: number;
  first_id: number;
  last_id: number;
}

/** Clicks of one link in one UTC hour, by visitor class: the time series sums these. */
export interface LinkClicksHourlyRow {
  link_id: number;
  hour_start: number;
  visitor_class: 'human' | 'bot' | 'preview';
  clicks: number;
  /** Visitors first seen on the link's day in this hour (human rows only; ADR 0028). */
  unique_visitors: Generated<number>;
}

/** Clicks of one link on one UTC day by one value of one dimension, by visitor class. */
export interface LinkBreakdownDailyRow {
  link_id: number;
  day_start: number;
  dimension: BreakdownDimension;
  value: string;
  visitor_class: 'human' | 'bot' | 'preview';
  clicks: number;
}

/** A read-only share address of one link's stats (migration 018): the token's SHA-256, never the token. */
export interface LinkShareRow {
  id: Generated<number>;
  link_id: number;
  token_hash: string;
  created_by: number | null;
  created_at: number;
  revoked_at: number | null;
}

/** The salt of one UTC day's visitor ids; deleted once the day is over (ADR 0028). */
export interface VisitorSaltRow {
  day_start: number;
  salt: string;
}

/** A visitor id seen on one link's UTC day, and the hour it was first seen in; kept two days at most. */
export interface LinkVisitorRow {
  day_start: number;
  link_id: number;
  visitor_id: number;
  hour_start: number;
}

export interface GlobalStatsRow {
  id: number;
  total_redirects: number;
  avg_latency_ms: number;
  human_redirects: Generated<number>;
  bot_redirects: Generated<number>;
  preview_redirects: Generated<number>;
}

/** A workspace's tag (migration 019); `name_key` is the name as compared (core/tag-rules.ts). */
export interface TagRow {
  id: Generated<number>;
  workspace_id: number;
  name: string;
  name_key: string;
  colour: string;
  created_at: number;
}

export interface LinkTagRow {
  link_id: number;
  tag_id: number;
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
  visit_facts: VisitFactsRow;
  visit_ranges: VisitRangeRow;
  global_stats: GlobalStatsRow;
  link_clicks_hourly: LinkClicksHourlyRow;
  link_breakdown_daily: LinkBreakdownDailyRow;
  link_shares: LinkShareRow;
  visitor_salts: VisitorSaltRow;
  link_visitors: LinkVisitorRow;
  tags: TagRow;
  link_tags: LinkTagRow;
  user_identities: UserIdentityRow;
  webhook_endpoints: WebhookEndpointRow;
  webhook_deliveries: WebhookDeliveryRow;
  domains: DomainRow;
}
