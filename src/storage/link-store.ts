import { CompiledQuery, sql, type Kysely, type Selectable, type UpdateQueryBuilder, type UpdateResult, type Updateable } from 'kysely';
import type { Link, LinkStatus, NewLink, RedirectTarget } from '../core/link.js';
import type { ClaimableLink, DailyClicks, InsertLinkResult, LinkChanges, LinkClaim, LinkListFilter, LinkStore, ListedLink, UniqueConflict } from '../core/ports.js';
import { countListedLinks, matchesNothing, selectDailyClicks, selectListedLinks } from './link-list-queries.js';
import type { Database, LinkRow } from './schema.js';
import type { EmbeddedAccess } from './database.js';
import { linkRowToLink, newLinkRow, optionColumns, REDIRECT_COLUMNS, redirectTargetOf, type RedirectRow } from './link-rows.js';
import { guarded, guardedSync, uniqueConflictOf } from './store-errors.js';
import { holdsNul } from './unstorable-text.js';

type LinksUpdate = UpdateQueryBuilder<Database, 'links', 'links', UpdateResult>;

/** The link store for both SQLite and PostgreSQL: only portable Kysely queries live here. */
export class KyselyLinkStore implements LinkStore {
  /** The redirect lookup, compiled once, not per request (ADR 0010, "Redirect misses"). */
  private readonly redirectTargetSql: string;
  /** The link INSERT … RETURNING *, its parameters in INSERT_COLUMNS order. */
  private readonly insertLinkSql: string;
  /** The same statement, prepared once on the embedded reader. */
  private readonly findRedirectRow: ((domain: string, code: string) => RedirectRow | undefined) | undefined;

  constructor(private readonly db: Kysely<Database>, private readonly embedded?: EmbeddedAccess) {
    this.redirectTargetSql = db.selectFrom('links')
      .select(REDIRECT_COLUMNS)
      .where('domain', '=', '').where('code', '=', '')
      .compile().sql;
    this.findRedirectRow = embedded?.reader.prepareFirstRow<RedirectRow>(this.redirectTargetSql);
    this.insertLinkSql = db.insertInto('links').values(newLinkRow(PLACEHOLDER_LINK)).returningAll().compile().sql;
  }

  /**
   * On the embedded database the lookup runs synchronously on the reader: one indexed read with
   * no promise chain, which is most of what a cache miss costs (docs/adr/0006). The query is the
   * same one Kysely compiled; only its execution differs.
   */
  findRedirectTarget(domain: string, code: string): RedirectTarget | undefined | Promise<RedirectTarget | undefined> {
    const findRow = this.findRedirectRow;
    if (findRow) return guardedSync(() => redirectTargetOf(findRow(domain, code)));
    if (holdsNul(domain, code)) return Promise.resolve(undefined);
    return guarded(async () => {
      const { rows } = await this.db.executeQuery<RedirectRow>(CompiledQuery.raw(this.redirectTargetSql, [domain, code]));
      return redirectTargetOf(rows[0]);
    });
  }

  findLinkByCode(domain: string, code: string): Promise<Link | undefined> {
    if (holdsNul(domain, code)) return Promise.resolve(undefined);
    return guarded(async () => {
      const row = await this.db.selectFrom('links').selectAll()
        .where('domain', '=', domain).where('code', '=', code)
        .executeTakeFirst();
      return row && linkRowToLink(row);
    });
  }

  findLinkById(id: number): Promise<Link | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirst();
      return row && linkRowToLink(row);
    });
  }

  /**
   * One INSERT … RETURNING, compiled once (like the redirect read): building and compiling it on
   * every create cost as much as the rest of the store call.
   */
  async insertLink(link: NewLink): Promise<InsertLinkResult> {
    const parameters = insertParameters(link);
    const result = await this.rowOrConflict(async () => {
      const { rows } = await this.db.executeQuery<Selectable<LinkRow>>(CompiledQuery.raw(this.insertLinkSql, parameters));
      if (rows[0] === undefined) throw new Error('the link INSERT returned no row');
      return rows[0];
    });
    return result!;
  }

  ping(): Promise<void> {
    return guarded(async () => {
      this.embedded?.assertFilesIntact();
      await this.db.selectFrom('global_stats').select('id').limit(1).execute();
    });
  }

  findLinkByWorkspaceUrl(workspaceId: number, normalizedUrl: string): Promise<Link | undefined> {
    return guarded(async () => {
      const row = await this.db.selectFrom('links').selectAll()
        .where('workspace_id', '=', workspaceId).where('normalized_url', '=', normalizedUrl)
        .executeTakeFirst();
      return row && linkRowToLink(row);
    });
  }

  updateLink(id: number, changes: LinkChanges): Promise<InsertLinkResult | undefined> {
    const values: Updateable<LinkRow> = { updated_at: changes.updatedAt };
    if (changes.originalUrl !== undefined) values.original_url = changes.originalUrl;
    if (changes.normalizedUrl !== undefined) values.normalized_url = changes.normalizedUrl;
    if (changes.redirectStatus !== undefined) values.redirect_status = changes.redirectStatus;
    Object.assign(values, optionColumns(changes));
    let query = this.db.updateTable('links').set(values).where('id', '=', id);
    if (changes.expiresAt !== undefined) {
      query = query.set({
        expires_at: changes.expiresAt,
        status: sql<LinkStatus>`case when status = 'EXPIRED' then 'ACTIVE' else status end`,
      });
    }
    return this.updateReturningLink(query.returningAll());
  }

  async markLinkDeleted(id: number, now: number): Promise<Link | undefined> {
    const result = await this.updateReturningLink(this.db.updateTable('links')
      .set({ status: 'DELETED', deleted_at: now, updated_at: now })
      .where('id', '=', id).where('status', '<>', 'DELETED')
      .returningAll());
    return result?.ok ? result.link : undefined;
  }

  async restoreDeletedLink(id: number, now: number): Promise<Link | undefined> {
    const result = await this.updateReturningLink(this.db.updateTable('links')
      .set({ status: 'ACTIVE', deleted_at: null, updated_at: now })
      .where('id', '=', id).where('status', '=', 'DELETED')
      .returningAll());
    return result?.ok ? result.link : undefined;
  }

  claimTemporaryLink(id: number, claimTokenHash: string, claim: LinkClaim): Promise<InsertLinkResult | undefined> {
    return this.updateReturningLink(this.db.updateTable('links')
      .set({
        owner_id: claim.ownerId,
        workspace_id: claim.workspaceId,
        link_type: 'PERMANENT',
        expires_at: null,
        status: 'ACTIVE',
        claim_token_hash: null,
        updated_at: claim.now,
      })
      .where('id', '=', id).where('link_type', '=', 'TEMPORARY').where('claim_token_hash', '=', claimTokenHash)
      .returningAll());
  }

  findClaimableLink(domain: string, code: string): Promise<ClaimableLink | undefined> {
    if (holdsNul(domain, code)) return Promise.resolve(undefined);
    return guarded(async () => {
      const row = await this.db.selectFrom('links').selectAll()
        .where('domain', '=', domain).where('code', '=', code)
        .where('link_type', '=', 'TEMPORARY').where('claim_token_hash', 'is not', null)
        .executeTakeFirst();
      return row?.claim_token_hash ? { link: linkRowToLink(row), claimTokenHash: row.claim_token_hash } : undefined;
    });
  }

  listLinks(filter: LinkListFilter): Promise<ListedLink[]> {
    if (matchesNothing(filter)) return Promise.resolve([]);
    return guarded(() => selectListedLinks(this.db, filter));
  }

  countLinks(filter: Omit<LinkListFilter, 'limit'>): Promise<number> {
    if (matchesNothing(filter)) return Promise.resolve(0);
    return guarded(() => countListedLinks(this.db, filter));
  }

  listDailyClicks(linkIds: readonly number[], from: number, to: number): Promise<DailyClicks[]> {
    return guarded(() => selectDailyClicks(this.db, linkIds, from, to));
  }

  markLinksDeleted(ids: readonly number[], now: number): Promise<Link[]> {
    return this.updateMany(ids, (query) => query
      .set({ status: 'DELETED', deleted_at: now, updated_at: now }).where('status', '<>', 'DELETED'));
  }

  restoreDeletedLinks(ids: readonly number[], now: number): Promise<Link[]> {
    return this.updateMany(ids, (query) => query
      .set({ status: 'ACTIVE', deleted_at: null, updated_at: now }).where('status', '=', 'DELETED'));
  }

  async moveLinks(ids: readonly number[], workspaceId: number, now: number): Promise<{ ok: true; moved: number } | { ok: false; conflict: UniqueConflict }> {
    if (ids.length === 0) return { ok: true, moved: 0 };
    return guarded(async () => {
      try {
        const result = await this.db.updateTable('links').set({ workspace_id: workspaceId, updated_at: now }).where('id', 'in', ids).executeTakeFirst();
        return { ok: true, moved: Number(result.numUpdatedRows) };
      } catch (error) {
        const conflict = uniqueConflictOf(error);
        if (conflict) return { ok: false, conflict };
        throw error;
      }
    });
  }

  private updateMany(ids: readonly number[], change: (query: LinksUpdate) => LinksUpdate): Promise<Link[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return guarded(async () => {
      const rows = await change(this.db.updateTable('links').where('id', 'in', ids)).returningAll().execute();
      return rows.map(linkRowToLink);
    });
  }

  private updateReturningLink(query: { executeTakeFirst(): Promise<Selectable<LinkRow> | undefined> }): Promise<InsertLinkResult | undefined> {
    return this.rowOrConflict(() => query.executeTakeFirst());
  }

  /** Runs a write that may break a unique index, answering the conflict as a value. */
  private rowOrConflict(write: () => Promise<Selectable<LinkRow> | undefined>): Promise<InsertLinkResult | undefined> {
    return guarded(async () => {
      try {
        const row = await write();
        return row && { ok: true, link: linkRowToLink(row) };
      } catch (error) {
        const conflict = uniqueConflictOf(error);
        if (conflict) return { ok: false, conflict };
        throw error;
      }
    });
  }
}

const PLACEHOLDER_LINK: NewLink = {
  domain: '', code: '', originalUrl: '', normalizedUrl: '', linkType: 'TEMPORARY',
  workspaceId: null, ownerId: null, claimTokenHash: null, createdAt: 0, expiresAt: null,
};

/** The compiled INSERT's parameters: the row's values in its column order, as Kysely compiled them. */
function insertParameters(link: NewLink): unknown[] {
  return Object.values(newLinkRow(link));
}
