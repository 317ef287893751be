import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type {
  MarkBatchRequest, MarkBatchResult, MarkCursor, PurgeBatchRequest, PurgeBatchResult, CleanupStore, RetentionBatchRequest,
} from '../core/cleanup-ports.js';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';
import { deleteVisitsOf } from './visits/visit-ranges.js';

type LinksBuilder = ExpressionBuilder<Database, 'links'>;

/** Every column of `links`, copied as is to `links_archive`. */
const LINK_COLUMNS = [
  'id', 'domain', 'code', 'original_url', 'normalized_url', 'link_type', 'status', 'workspace_id', 'owner_id',
  'claim_token_hash', 'created_at', 'updated_at', 'expires_at', 'deleted_at', 'redirect_count', 'avg_redirect_ms',
  'human_count', 'bot_count', 'preview_count', 'destination_status', 'last_checked_at',
  'disabled_at', 'disabled_reason', 'disabled_by', 'redirect_status', 'options', 'password_hash', 'max_clicks', 'clicks_left',
] as const;

/** Links the mark phase may touch: live by status, past their expiry. */
export function isMarkable(now: number) {
  return (eb: LinksBuilder): Expression<SqlBool> => eb.and([
    eb('links.status', '=', 'ACTIVE'),
    eb('links.expires_at', '<', now),
  ]);
}

/**
 * Links the purge may delete (correct even without the lock). Never an ACTIVE
 * link, never one whose expiry is after the cutoff (so never one that is still live or was
 * renewed), and a DELETED link only once its deletion is older than the cutoff.
 */
export function isPurgeable(cutoff: number) {
  return (eb: LinksBuilder): Expression<SqlBool> => eb.or([
    eb.and([
      eb('links.status', '=', 'EXPIRED'),
      eb('links.expires_at', '<', cutoff),
    ]),
    eb.and([
      eb('links.status', '=', 'DELETED'),
      eb('links.deleted_at', '<', cutoff),
      eb.or([eb('links.expires_at', 'is', null), eb('links.expires_at', '<', cutoff)]),
    ]),
  ]);
}

function after(cursor: MarkCursor) {
  return (eb: LinksBuilder): Expression<SqlBool> => eb.and([
    eb('links.expires_at', '>=', cursor.expiresAt),
    eb.or([eb('links.expires_at', '>', cursor.expiresAt), eb('links.id', '>', cursor.id)]),
  ]);
}

function lastOf(rows: ReadonlyArray<{ id: number; expires_at: number | null }>, previous: MarkCursor | undefined) {
  let cursor = previous;
  for (const row of rows) {
    const candidate = { expiresAt: Number(row.expires_at), id: Number(row.id) };
    if (!cursor || candidate.expiresAt > cursor.expiresAt || (candidate.expiresAt === cursor.expiresAt && candidate.id > cursor.id)) {
      cursor = candidate;
    }
  }
  return cursor;
}

/**
 * The cleanup job's batches. Each is one statement choosing at most `limit` ids (`id IN (SELECT id …
 * LIMIT n)`), with the predicate repeated on the outer statement: under PostgreSQL's READ
 * COMMITTED a row changed by a concurrent claim is re-checked against it before being touched.
 */
export class KyselyCleanupStore implements CleanupStore {
  constructor(private readonly db: Kysely<Database>, private readonly dialect: Dialect) {}

  markExpiredBatch(request: MarkBatchRequest): Promise<MarkBatchResult> {
    const { now, limit, after: cursor, beforeCommit } = request;
    return guarded(() => this.db.transaction().execute(async (trx) => {
      // Walking (expires_at, id) from the cursor skips the rows earlier batches already marked.
      const batch = trx.selectFrom('links').select('links.id')
        .where(isMarkable(now))
        .$if(cursor !== undefined, (qb) => qb.where(after(cursor!)))
        .orderBy('links.expires_at').orderBy('links.id')
        .limit(limit);
      const rows = await trx.updateTable('links')
        .set({ status: 'EXPIRED', updated_at: now })
        .where('links.id', 'in', batch)
        .where(isMarkable(now))
        .returning(['links.id', 'links.domain', 'links.code', 'links.expires_at'])
        .execute();
      await beforeCommit?.(rows.length);
      return { links: rows.map((row) => ({ domain: row.domain, code: row.code })), cursor: lastOf(rows, cursor) };
    }));
  }

  purgeBatch(request: PurgeBatchRequest): Promise<PurgeBatchResult> {
    const { cutoff, limit, archivedAt, beforeCommit } = request;
    return guarded(() => this.db.transaction().execute(async (trx) => {
      // The ids are read once: under PostgreSQL two LIMIT subqueries could pick different rows.
      const candidates = trx.selectFrom('links').select('links.id').where(isPurgeable(cutoff)).limit(limit);
      // PostgreSQL only: batches that overlap (two cleanup runs, no lock) would copy the same rows and
      // all but one fail on the archive's primary key. Locking the chosen rows, and skipping rows
      // another batch holds, gives each batch its own. SQLite runs one write transaction at a
      // time and has no FOR UPDATE.
      const chosen = this.dialect === 'postgres' ? candidates.forUpdate().skipLocked() : candidates;
      const ids = (await chosen.execute()).map((row) => row.id);
      if (ids.length === 0) return { purged: 0, archived: 0 };
      let archived = 0;
      if (archivedAt !== undefined) {
        const copied = await trx.insertInto('links_archive')
          .columns([...LINK_COLUMNS, 'archived_at'])
          .expression(trx.selectFrom('links')
            .select([...LINK_COLUMNS, sql<number>`cast(${archivedAt} as bigint)`.as('archived_at')])
            .where('links.id', 'in', ids).where(isPurgeable(cutoff)))
          .executeTakeFirst();
        archived = Number(copied.numInsertedOrUpdatedRows ?? 0);
      }
      const deleted = await trx.deleteFrom('links').where('links.id', 'in', ids).where(isPurgeable(cutoff)).executeTakeFirst();
      const purged = Number(deleted.numDeletedRows);
      // Only the visits of links that are gone: under READ COMMITTED a chosen row may have been claimed meanwhile.
      const kept = new Set((await trx.selectFrom('links').select('links.id').where('links.id', 'in', ids).execute()).map((row) => row.id));
      await deleteVisitsOf(trx, ids.filter((id) => !kept.has(id)));
      if (archived > purged) {
        // Only under PostgreSQL's READ COMMITTED: a row claimed or restored between the copy and the
        // DELETE was copied but is still live; its copy goes, so the archive holds exactly the purged rows.
        const stray = await trx.deleteFrom('links_archive')
          .where('links_archive.id', 'in', ids)
          .where('links_archive.archived_at', '=', archivedAt!)
          .where('links_archive.id', 'in', trx.selectFrom('links').select('links.id').where('links.id', 'in', ids))
          .executeTakeFirst();
        archived -= Number(stray.numDeletedRows);
      }
      await beforeCommit?.(purged);
      return { purged, archived };
    }));
  }

  /**
   * Raw visits past VISITS_RETENTION among the first `limit` by id (the primary key; no index on
   * time is kept for this, ADR 0016), and the visit ranges wholly below what is left; counters and
   * roll-ups are other tables.
   */
  deleteVisitsBatch(request: RetentionBatchRequest): Promise<number> {
    const { before, limit, beforeCommit } = request;
    return guarded(() => this.db.transaction().execute(async (trx) => {
      const first = trx.selectFrom('visits').select('visits.id').orderBy('visits.id').limit(limit);
      const deleted = await trx.deleteFrom('visits').where('visits.id', 'in', first).where('visits.visited_at', '<', before).executeTakeFirst();
      const rows = Number(deleted.numDeletedRows);
      // Ranges wholly below the oldest visit left point at nothing. With no visit left, min is null and
      // nothing goes: a later batch, once visits exist again, takes them.
      await trx.deleteFrom('visit_ranges').where('visit_ranges.last_id', '<', trx.selectFrom('visits').select((eb) => eb.fn.min('visits.id').as('oldest'))).execute();
      await beforeCommit?.(rows);
      return rows;
    }));
  }

  /**
   * Facts rows no visit points at any more (ADR 0021): every flush and import moves a row's
   * `last_used_at` to its latest visit, so a row last used before the cutoff has no visit left
   * once retention has deleted the older ones. On PostgreSQL a flush that uses the row meanwhile
   * holds its lock (an upsert) and moves the time forward; this DELETE waits for it and then
   * skips the row, as its WHERE is checked again.
   */
  deleteUnusedFactsBatch(request: RetentionBatchRequest): Promise<number> {
    const { before, limit, beforeCommit } = request;
    return guarded(() => this.db.transaction().execute(async (trx) => {
      const unused = trx.selectFrom('visit_facts').select('visit_facts.id').where('visit_facts.last_used_at', '<', before).limit(limit);
      const deleted = await trx.deleteFrom('visit_facts').where('visit_facts.id', 'in', unused).where('visit_facts.last_used_at', '<', before).executeTakeFirst();
      const rows = Number(deleted.numDeletedRows);
      await beforeCommit?.(rows);
      return rows;
    }));
  }

  /** Roll-up rows past ROLLUP_RETENTION, found through their time indexes (migration 010). */
  deleteRollupsBatch(request: RetentionBatchRequest): Promise<number> {
    const { before, limit, beforeCommit } = request;
    return guarded(() => this.db.transaction().execute(async (trx) => {
      const hourly = await sql`delete from link_clicks_hourly where (link_id, hour_start, visitor_class) in (
        select link_id, hour_start, visitor_class from link_clicks_hourly where hour_start < ${before} limit ${limit})`.execute(trx);
      let rows = Number(hourly.numAffectedRows ?? 0);
      if (rows < limit) {
        const daily = await sql`delete from link_breakdown_daily where (link_id, day_start, dimension, value, visitor_class) in (
          select link_id, day_start, dimension, value, visitor_class from link_breakdown_daily where day_start < ${before} limit ${limit - rows})`.execute(trx);
        rows += Number(daily.numAffectedRows ?? 0);
      }
      await beforeCommit?.(rows);
      return rows;
    }));
  }

  /**
   * Delivered and given-up webhook deliveries past their retention (ADR 0035). Rows are inserted as
   * their events happen, so the oldest have the lowest ids: walking the primary key from its start
   * finds them first, without an index of their own. A pending row stays, however old (a disabled
   * endpoint's rows wait for it).
   */
  deleteFinishedWebhookDeliveriesBatch(request: RetentionBatchRequest): Promise<number> {
    const { before, limit, beforeCommit } = request;
    return guarded(() => this.db.transaction().execute(async (trx) => {
      const oldest = trx.selectFrom('webhook_deliveries').select('id')
        .where('status', 'in', ['delivered', 'failed']).where('occurred_at', '<', before).orderBy('id').limit(limit);
      const deleted = await trx.deleteFrom('webhook_deliveries').where('id', 'in', oldest).executeTakeFirst();
      const rows = Number(deleted.numDeletedRows);
      await beforeCommit?.(rows);
      return rows;
    }));
  }
}
