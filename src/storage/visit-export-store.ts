import type { Kysely } from 'kysely';
import type { ExportedLink, ExportedVisit, VisitExportStore, VisitIdRange, VisitPageQuery } from '../core/visit-export-ports.js';
import type { Database } from './schema.js';
import { guarded } from './store-errors.js';

/**
 * Raw visits for the CSV export, both databases. Every read is a short keyset query (primary keys
 * of `visit_ranges` and `visits`): on SQLite they run on the main thread's reader connection, never
 * on the writer thread, and each page is small enough not to hold redirects up.
 */
export class KyselyVisitExportStore implements VisitExportStore {
  constructor(private readonly db: Kysely<Database>) {}

  listVisitRanges(linkId: number, afterFirstId: number, limit: number): Promise<VisitIdRange[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('visit_ranges').select(['first_id', 'last_id'])
        .where('link_id', '=', linkId).where('first_id', '>', afterFirstId)
        .orderBy('first_id').limit(limit).execute();
      return rows.map((row) => ({ firstId: Number(row.first_id), lastId: Number(row.last_id) }));
    });
  }

  listVisits(query: VisitPageQuery): Promise<ExportedVisit[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('visits as v').innerJoin('visit_facts as f', 'f.id', 'v.facts_id')
        .select(['v.id', 'v.visited_at', 'f.visitor_class', 'f.country', 'f.city', 'f.referrer_host', 'f.browser', 'f.os', 'f.device', 'f.destination'])
        .where('v.id', '>=', query.fromId).where('v.id', '<=', query.toId)
        .where('v.link_id', '=', query.linkId)
        .where('v.visited_at', '>=', query.from).where('v.visited_at', '<', query.to)
        .orderBy('v.id').limit(query.limit).execute();
      return rows.map((row) => ({
        id: Number(row.id), visitedAt: Number(row.visited_at), visitorClass: row.visitor_class, country: row.country,
        city: row.city,
        referrerHost: row.referrer_host, browser: row.browser, os: row.os, device: row.device, destination: row.destination,
      }));
    });
  }

  listWorkspaceLinks(workspaceId: number, afterId: number, limit: number): Promise<ExportedLink[]> {
    return guarded(async () => {
      const rows = await this.db.selectFrom('links').select(['id', 'code'])
        .where('workspace_id', '=', workspaceId).where('id', '>', afterId)
        .orderBy('id').limit(limit).execute();
      return rows.map((row) => ({ id: Number(row.id), code: row.code }));
    });
  }
}
