import { sql, type Kysely } from 'kysely';
import type { ClaimedDelivery, DeliveryFailure, WebhookOutbox } from '../core/webhook-ports.js';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

/**
 * The delivery job's side of the outbox (ADR 0035). A claim is one UPDATE of the due rows' ids:
 * on PostgreSQL the ids come from a `SELECT … FOR UPDATE SKIP LOCKED`, so two instances claiming
 * at once take different rows and never wait for each other; SQLite has one writer, whose lock
 * orders two claims. A row is due when no older row of the same link and endpoint is still
 * pending, so a link's events go out one at a time, in order.
 */
export class KyselyWebhookOutboxStore implements WebhookOutbox {
  constructor(private readonly db: Kysely<Database>, private readonly dialect: Dialect) {}

  claimDue(now: number, claimedUntil: number, limit: number): Promise<ClaimedDelivery[]> {
    return guarded(async () => {
      let due = this.db.selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select('d.id')
        .where('e.enabled', '=', 1).where('d.status', '=', 'pending').where('d.next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('d.claimed_until', 'is', null), eb('d.claimed_until', '<', now)]))
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('webhook_deliveries as p').select('p.id')
          .whereRef('p.endpoint_id', '=', 'd.endpoint_id').whereRef('p.link_id', '=', 'd.link_id')
          .whereRef('p.id', '<', 'd.id').where('p.status', '=', 'pending'))))
        .orderBy('d.id').limit(limit);
      // Nothing due answers from a read: an idle instance polling every second must not take
      // SQLite's write lock (another process may hold it) or a PostgreSQL row lock for nothing.
      if (await due.executeTakeFirst() === undefined) return [];
      if (this.dialect === 'postgres') due = due.forUpdate('d').skipLocked();
      const claimed = await this.db.updateTable('webhook_deliveries')
        .set({ claimed_until: claimedUntil, attempts: sql`attempts + 1` })
        .where('id', 'in', due)
        .returning('id').execute();
      if (claimed.length === 0) return [];
      const rows = await this.db.selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select(['d.id', 'e.url', 'e.secret', 'd.event_type', 'd.payload', 'd.occurred_at', 'd.attempts'])
        .where('d.id', 'in', claimed.map((row) => row.id)).orderBy('d.id').execute();
      return rows.map((row) => ({
        id: Number(row.id), url: row.url, secret: row.secret, eventType: row.event_type, payload: row.payload,
        occurredAt: Number(row.occurred_at), attempts: Number(row.attempts),
      }));
    });
  }

  recordDelivered(id: number, lastStatus: number, now: number): Promise<void> {
    return guarded(() => this.db.transaction().execute(async (trx) => {
      await trx.updateTable('webhook_deliveries')
        .set({ status: 'delivered', delivered_at: now, last_status: lastStatus, last_error: null, claimed_until: null })
        .where('id', '=', id).execute();
      await trx.updateTable('webhook_endpoints').set({ failing_since: null })
        .where('id', '=', trx.selectFrom('webhook_deliveries').select('endpoint_id').where('id', '=', id)).execute();
    }));
  }

  /** The row's next attempt or its end, the endpoint's failing streak, and its disabling once the streak is long enough: one transaction. */
  recordFailed(id: number, failure: DeliveryFailure, now: number): Promise<void> {
    return guarded(() => this.db.transaction().execute(async (trx) => {
      await trx.updateTable('webhook_deliveries').set({
        status: failure.nextAttemptAt === undefined ? 'failed' : 'pending',
        next_attempt_at: failure.nextAttemptAt ?? now,
        last_status: failure.lastStatus, last_error: failure.lastError, claimed_until: null,
      }).where('id', '=', id).execute();
      const endpoint = trx.selectFrom('webhook_deliveries').select('endpoint_id').where('id', '=', id);
      await trx.updateTable('webhook_endpoints').set({ failing_since: now })
        .where('id', '=', endpoint).where('failing_since', 'is', null).execute();
      await trx.updateTable('webhook_endpoints').set({ enabled: 0, disabled_reason: failure.reason, updated_at: now })
        .where('id', '=', endpoint).where('enabled', '=', 1).where('failing_since', '<=', failure.disableIfFailingSince).execute();
    }));
  }
}
