import type { LinkRedirectStatus } from '../core/link.js';
import { parseStoredOptions, storedOptions } from '../core/link-options.js';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Visit, VisitStatements } from '../core/visit-ports.js';
import { batchOfVisits } from '../core/visit-batch.js';
import type {
  ExportedLink, ExportFilter, ImportableLink, ImportOutcome, ImportTarget, LinkTransferStore, TransferTag, TransferVisit,
} from '../core/link-transfer-ports.js';
import { insertImportedTags, selectTagsForExport } from './transferred-tags.js';
import type { Database, LinkRow } from './schema.js';
import { guarded } from './store-errors.js';
import { CompiledAppends, KyselyVisitStatements } from './visits/kysely-visit-statements.js';
import { appendVisits } from './visits/record-visits.js';
import { visitIdsOf } from './visits/visit-ranges.js';

/** Rows per statement: far below SQLite's and PostgreSQL's limits on bound parameters. */
const ROWS_PER_STATEMENT = 500;

/** Thrown inside a dry run's transaction so that it rolls back, carrying what the writes would have been. */
class DryRunRollback extends Error {
  constructor(readonly outcomes: ImportOutcome[]) {
    super('dry run');
  }
}

function chunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < rows.length; i += size) parts.push(rows.slice(i, i + size));
  return parts;
}

const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function exportedLinkOf(row: Selectable<LinkRow>): ExportedLink {
  return {
    id: Number(row.id),
    domainKey: row.domain,
    code: row.code,
    originalUrl: row.original_url,
    status: row.status,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: nullableNumber(row.expires_at),
    deletedAt: nullableNumber(row.deleted_at),
    redirectCount: Number(row.redirect_count),
    humanCount: Number(row.human_count),
    botCount: Number(row.bot_count),
    previewCount: Number(row.preview_count),
    avgRedirectMs: Number(row.avg_redirect_ms),
    redirectStatus: row.redirect_status === null ? null : Number(row.redirect_status) as LinkRedirectStatus,
    options: parseStoredOptions(row.options),
    passwordHash: row.password_hash,
    maxClicks: row.max_clicks === null ? null : Number(row.max_clicks),
    clicksLeft: row.clicks_left === null ? null : Number(row.clicks_left),
  };
}

export class KyselyLinkTransferStore implements LinkTransferStore {
  private readonly appends: CompiledAppends;

  constructor(private readonly db: Kysely<Database>) {
    this.appends = new CompiledAppends(db);
  }

  async insertImportedLinks(target: ImportTarget, links: readonly ImportableLink[], options: { readonly dryRun: boolean; readonly now: number }): Promise<ImportOutcome[]> {
    if (links.length === 0) return [];
    try {
      return await guarded(() => this.db.transaction().execute(async (trx) => {
        const outcomes = await insertAndClassify(trx, target, links);
        await insertVisits(new KyselyVisitStatements(trx, this.appends), links, outcomes);
        await insertImportedTags(trx, target, links, outcomes, options.now);
        if (options.dryRun) throw new DryRunRollback(outcomes);
        return outcomes;
      }));
    } catch (error) {
      if (error instanceof DryRunRollback) return error.outcomes;
      throw error;
    }
  }

  listLinksForExport(filter: ExportFilter): Promise<ExportedLink[]> {
    return guarded(async () => {
      let query = this.db.selectFrom('links').selectAll()
        .where('domain', 'in', filter.domains).where('id', '>', filter.afterId);
      query = filter.workspaceId === undefined
        ? query.where('workspace_id', 'is not', null)
        : query.where('workspace_id', '=', filter.workspaceId);
      if (filter.linkIds !== undefined) query = query.where('id', 'in', filter.linkIds);
      const rows = await query.orderBy('id').limit(filter.limit).execute();
      return rows.map(exportedLinkOf);
    });
  }

  findSoleWorkspaceId(): Promise<number | 'none' | 'several'> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('workspaces').select('id').orderBy('id').limit(2).execute();
      return rows.length === 1 ? Number(rows[0]!.id) : rows.length === 0 ? 'none' : 'several';
    });
  }

  listTagsForExport(linkIds: readonly number[]): Promise<Map<number, TransferTag[]>> {
    return guarded(() => selectTagsForExport(this.db, linkIds));
  }

  listVisitsForExport(linkIds: readonly number[]): Promise<Map<number, TransferVisit[]>> {
    return guarded(async () => {
      const visits = new Map<number, TransferVisit[]>(linkIds.map((id) => [id, []]));
      for (const part of chunks(linkIds)) {
        const rows = await this.db.selectFrom('visits')
          .innerJoin('visit_facts as f', 'f.id', 'visits.facts_id')
          .select(['visits.link_id', 'visits.visited_at', 'visits.latency_ms', 'f.visitor_class', 'f.referrer_host', 'f.browser', 'f.os', 'f.device', 'f.country', 'f.region', 'f.city'])
          .where('visits.id', 'in', visitIdsOf(this.db, part)).orderBy('visits.link_id').orderBy('visits.visited_at').orderBy('visits.id')
          .execute();
        for (const row of rows) {
          visits.get(Number(row.link_id))!.push({
            visitedAt: Number(row.visited_at), latencyMs: Number(row.latency_ms), visitorClass: row.visitor_class,
            referrerHost: row.referrer_host, browser: row.browser, os: row.os, device: row.device, country: row.country, region: row.region, city: row.city,
          });
        }
      }
      return visits;
    });
  }
}

async function insertAndClassify(trx: Transaction<Database>, target: ImportTarget, links: readonly ImportableLink[]): Promise<ImportOutcome[]> {
  const insertedIds = new Map<string, number>();
  for (const part of chunks(links)) {
    const rows = await trx.insertInto('links').values(part.map((link) => ({
      domain: link.domainKey ?? target.domain,
      code: link.code,
      original_url: link.originalUrl,
      normalized_url: link.normalizedUrl,
      link_type: 'PERMANENT' as const,
      status: link.status,
      workspace_id: target.workspaceId,
      owner_id: target.ownerId,
      claim_token_hash: null,
      created_at: link.createdAt,
      updated_at: link.updatedAt,
      expires_at: link.expiresAt,
      deleted_at: link.deletedAt,
      redirect_count: link.redirectCount,
      avg_redirect_ms: link.avgRedirectMs,
      human_count: link.humanCount,
      bot_count: link.botCount,
      preview_count: link.previewCount,
      destination_status: null,
      last_checked_at: null,
      redirect_status: link.redirectStatus ?? null,
      options: storedOptions(link.options),
      password_hash: link.passwordHash ?? null,
      max_clicks: link.maxClicks ?? null,
      // The import held the clicks left to the limit (links/link-limits.ts); absent, all of them are left.
      clicks_left: link.maxClicks === null || link.maxClicks === undefined ? null : link.clicksLeft ?? link.maxClicks,
    }))).onConflict((oc) => oc.doNothing()).returning(['id', 'domain', 'code']).execute();
    for (const row of rows) insertedIds.set(slotOf(row.domain, row.code), Number(row.id));
  }
  // A code given twice in one file went in once: only its first row is the created one.
  const outcomes: (ImportOutcome | undefined)[] = links.map((link) => {
    const slot = slotOf(link.domainKey ?? target.domain, link.code);
    const id = insertedIds.get(slot);
    if (id === undefined) return undefined;
    insertedIds.delete(slot);
    return { kind: 'created', linkId: id };
  });
  await classifyRefused(trx, target, links, outcomes);
  return outcomes as ImportOutcome[];
}

/** A code's slot: codes are unique per domain. */
const slotOf = (domain: string, code: string) => `${domain}\n${code}`;

/** Reads who holds the slot of every row the indexes refused: read after the write, never before it. */
async function classifyRefused(trx: Transaction<Database>, target: ImportTarget, links: readonly ImportableLink[], outcomes: (ImportOutcome | undefined)[]): Promise<void> {
  const refused = links.filter((_, i) => outcomes[i] === undefined);
  if (refused.length === 0) return;
  const codeHolders = new Map<string, { workspaceId: number | null; normalizedUrl: string }>();
  const urlHolders = new Map<string, string>();
  for (const part of chunks(refused)) {
    const domains = [...new Set(part.map((link) => link.domainKey ?? target.domain))];
    const byCode = await trx.selectFrom('links').select(['domain', 'code', 'workspace_id', 'normalized_url'])
      .where('domain', 'in', domains).where('code', 'in', part.map((link) => link.code)).execute();
    for (const row of byCode) codeHolders.set(slotOf(row.domain, row.code), { workspaceId: nullableNumber(row.workspace_id), normalizedUrl: row.normalized_url });
    const byUrl = await trx.selectFrom('links').select(['code', 'normalized_url'])
      .where('workspace_id', '=', target.workspaceId).where('normalized_url', 'in', part.map((link) => link.normalizedUrl)).execute();
    for (const row of byUrl) urlHolders.set(row.normalized_url, row.code);
  }
  links.forEach((link, i) => {
    if (outcomes[i] !== undefined) return;
    const holder = codeHolders.get(slotOf(link.domainKey ?? target.domain, link.code));
    if (holder && holder.workspaceId === target.workspaceId && holder.normalizedUrl === link.normalizedUrl) {
      outcomes[i] = { kind: 'existing' };
    } else if (holder) {
      outcomes[i] = { kind: 'rejected', reason: 'code_taken', detail: `The short code "${link.code}" is already used by another link.` };
    } else {
      const code = urlHolders.get(link.normalizedUrl) ?? '?';
      outcomes[i] = { kind: 'rejected', reason: 'url_already_shortened', detail: `The workspace already links this URL as "${code}".` };
    }
  });
}

/**
 * Visits of the links created here, through the flush's own steps (visits/record-visits.ts): rows,
 * ranges, hourly and daily roll-ups, values past a day's cap folded as a flush folds them (ADR
 * 0021), each facts row's last use moved to its latest imported visit, old as it may be. No counter
 * moves: an imported link brings its own.
 */
async function insertVisits(statements: VisitStatements, links: readonly ImportableLink[], outcomes: readonly (ImportOutcome | undefined)[]): Promise<void> {
  const visits: Visit[] = [];
  const created = new Set<number>();
  links.forEach((link, i) => {
    const outcome = outcomes[i];
    if (outcome?.kind !== 'created' || !link.visits) return;
    created.add(outcome.linkId);
    for (const visit of link.visits) visits.push({ ...visit, linkId: outcome.linkId });
  });
  if (visits.length > 0) await appendVisits(statements, batchOfVisits(visits), created);
}
