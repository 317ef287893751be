import type { Principal } from '../core/principal.js';
import type { ExportedLink, ExportedVisit, VisitExportStore } from '../core/visit-export-ports.js';
import type { StatsDeps } from './get-global-stats.js';
import { statsRange } from './get-link-stats.js';
import { findAccessibleLink, requireMembership, type LinkSelector } from './link-access.js';

/** Visit rows per read; also the most an export holds at once. */
export const VISIT_PAGE_SIZE = 1000;
const RANGE_PAGE_SIZE = 500;
const LINK_PAGE_SIZE = 500;

export interface VisitExportQuery {
  readonly from?: number;
  readonly to?: number;
}

/** One page of one link's visits. */
export interface VisitPage {
  readonly link: ExportedLink;
  readonly visits: readonly ExportedVisit[];
}

export interface VisitExport {
  /** Visit times: inclusive, exclusive. */
  readonly from: number;
  readonly to: number;
  /** Read as the consumer asks for them: a page is fetched only once the one before was taken. */
  readonly pages: AsyncGenerator<VisitPage>;
}

/**
 * The stats route's rules for from and to (a 400 naming the field, at most 366 days, 30 days by
 * default), but the bounds asked for are kept exactly: an export is rows, not buckets.
 */
export function exportRange(query: VisitExportQuery, now: number): { from: number; to: number } {
  const checked = statsRange({ ...query, interval: 'day' }, now);
  return { from: query.from ?? checked.from, to: query.to ?? checked.to };
}

/**
 * `GET /api/urls/{id}/visits.csv`: whoever may read the link's stats may export its visits, in id
 * order (time order to within a flush, ADR 0016).
 */
export async function exportLinkVisits(deps: StatsDeps, principal: Principal, selector: LinkSelector, query: VisitExportQuery): Promise<VisitExport & { link: ExportedLink }> {
  const range = exportRange(query, deps.clock.now());
  const found = await findAccessibleLink(deps.links, principal, selector, 'read');
  const link = { id: found.id, code: found.code };
  return { link, ...range, pages: visitPagesOf(deps.visits, link, range) };
}

/** `GET /api/v1/workspaces/{id}/visits.csv`: any member, or the workspace's API key; link by link, in link id order. */
export async function exportWorkspaceVisits(deps: StatsDeps, principal: Principal, workspaceId: number, query: VisitExportQuery): Promise<VisitExport> {
  const range = exportRange(query, deps.clock.now());
  await requireMembership(deps.links, principal, workspaceId);
  return { ...range, pages: workspacePages(deps.visits, workspaceId, range) };
}

async function* workspacePages(store: VisitExportStore, workspaceId: number, range: { from: number; to: number }): AsyncGenerator<VisitPage> {
  for (let afterId = 0; ;) {
    const links = await store.listWorkspaceLinks(workspaceId, afterId, LINK_PAGE_SIZE);
    for (const link of links) yield* visitPagesOf(store, link, range);
    if (links.length < LINK_PAGE_SIZE) return;
    afterId = links.at(-1)!.id;
  }
}

/**
 * A link's visits through its visit ranges, each read by keyset on the id. Two PostgreSQL
 * instances flushing at once can give one link overlapping ranges, so reading starts past the
 * highest id already covered: no visit is written twice.
 */
async function* visitPagesOf(store: VisitExportStore, link: ExportedLink, range: { from: number; to: number }): AsyncGenerator<VisitPage> {
  let covered = 0;
  for (let afterFirstId = 0; ;) {
    const ranges = await store.listVisitRanges(link.id, afterFirstId, RANGE_PAGE_SIZE);
    for (const { firstId, lastId } of ranges) {
      for (let fromId = Math.max(firstId, covered + 1); fromId <= lastId;) {
        const visits = await store.listVisits({ linkId: link.id, fromId, toId: lastId, ...range, limit: VISIT_PAGE_SIZE });
        if (visits.length > 0) yield { link, visits };
        if (visits.length < VISIT_PAGE_SIZE) break;
        fromId = visits.at(-1)!.id + 1;
      }
      covered = Math.max(covered, lastId);
    }
    if (ranges.length < RANGE_PAGE_SIZE) return;
    afterFirstId = ranges.at(-1)!.firstId;
  }
}
