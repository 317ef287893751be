import type { Dialect } from '../database.js';

/** The columns of `links` whose change a webhook reports; a click's counters and a health check's status are not among them. */
const WATCHED = ['original_url', 'expires_at', 'status', 'redirect_status', 'options', 'password_hash', 'max_clicks', 'clicks_left', 'workspace_id', 'link_type'];
const SNAPSHOT = ['id', 'domain', 'code', 'original_url', 'normalized_url', 'link_type', 'status', 'workspace_id', 'created_at', 'updated_at',
  'expires_at', 'deleted_at', 'redirect_status', 'max_clicks', 'clicks_left'];
const INSERT_DELIVERY = 'insert into webhook_deliveries (endpoint_id, event_type, link_id, payload, occurred_at, status, attempts, next_attempt_at)';

/**
 * Which event an update is, in order: a claimed link (no workspace before) is created in its
 * workspace; then deleted, expired, out of clicks; any other watched column makes it updated.
 * `differs` spells "not the same, nulls included" in the dialect.
 */
function eventCase(differs: (column: string) => string): string {
  const updated = WATCHED.map(differs).join(' or ');
  return `case
    when old.workspace_id is null then 'link.created'
    when new.status = 'DELETED' and old.status <> 'DELETED' then 'link.deleted'
    when new.status = 'EXPIRED' and old.status <> 'EXPIRED' then 'link.expired'
    when new.clicks_left = 0 and ${differs('clicks_left')} then 'link.limit_reached'
    when ${updated} then 'link.updated'
  end`;
}

/** The event's bit in `webhook_endpoints.events` (core/webhook-events.ts). */
const bitOf = (type: string) => `case ${type} when 'link.created' then 1 when 'link.updated' then 2 when 'link.deleted' then 4
  when 'link.expired' then 8 when 'link.limit_reached' then 16 else 0 end`;

/**
 * The outbox's triggers (migration 025, ADR 0035): one delivery row per enabled endpoint of the
 * link's workspace that asked for the event, written in the transaction of the change. The payload
 * is the link's row as it is now; the delivery job turns it into the API's link JSON.
 */
export function linkEventTriggerSql(dialect: Dialect): string[] {
  if (dialect === 'postgres') {
    const snapshot = `json_build_object(${SNAPSHOT.map((c) => `'${c}', new.${c}`).join(', ')})::text`;
    return [`create function webhook_link_event() returns trigger language plpgsql as $$
      declare kind text;
      begin
        if new.workspace_id is null then return null; end if;
        if tg_op = 'INSERT' then kind := 'link.created';
        else kind := ${eventCase((c) => `new.${c} is distinct from old.${c}`)};
        end if;
        if kind is null then return null; end if;
        ${INSERT_DELIVERY}
          select e.id, kind, new.id, ${snapshot}, (extract(epoch from clock_timestamp()) * 1000)::bigint, 'pending', 0, 0
          from webhook_endpoints e
          where e.workspace_id = new.workspace_id and e.enabled = 1 and (e.events & (${bitOf('kind')})) <> 0;
        return null;
      end $$`,
    `create trigger webhook_link_events after insert or update of ${WATCHED.join(', ')} on links
      for each row execute function webhook_link_event()`];
  }
  const snapshot = `json_object(${SNAPSHOT.map((c) => `'${c}', new.${c}`).join(', ')})`;
  const now = `cast((julianday('now') - 2440587.5) * 86400000.0 as integer)`;
  const fanOut = (kind: string) => `${INSERT_DELIVERY}
      select e.id, k.kind, new.id, ${snapshot}, ${now}, 'pending', 0, 0
      from (select ${kind} as kind) k join webhook_endpoints e
        on e.workspace_id = new.workspace_id and e.enabled = 1 and (e.events & (${bitOf('k.kind')})) <> 0
      where k.kind is not null;`;
  return [
    `create trigger webhook_link_inserted after insert on links when new.workspace_id is not null
      begin ${fanOut(`'link.created'`)} end`,
    `create trigger webhook_link_updated after update of ${WATCHED.join(', ')} on links when new.workspace_id is not null
      begin ${fanOut(eventCase((c) => `new.${c} is not old.${c}`))} end`,
  ];
}
