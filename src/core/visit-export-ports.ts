import type { VisitorClass } from './visit-ports.js';

/** One raw visit as an export shows it: its facts, never an address (none is stored). */
export interface ExportedVisit {
  readonly id: number;
  readonly visitedAt: number;
  readonly visitorClass: VisitorClass;
  readonly country: string | null;
  readonly city: string | null;
  /** The route or variant that served the visit (`route:0`, `variant:1`); null when the link's own URL did (ADR 0031). */
  readonly destination?: string | null;
  readonly referrerHost: string | null;
  readonly browser: string | null;
  readonly os: string | null;
  readonly device: string | null;
}

/** A run of visit ids that holds every visit of one link written by one flush (ADR 0016, "Visit ranges"). */
export interface VisitIdRange {
  readonly firstId: number;
  readonly lastId: number;
}

export interface VisitPageQuery {
  readonly linkId: number;
  /** Inclusive id bounds: the part of one range still to read. */
  readonly fromId: number;
  readonly toId: number;
  /** Visit times, epoch milliseconds: inclusive, exclusive. */
  readonly from: number;
  readonly to: number;
  readonly limit: number;
}

/** A link of a workspace, as the workspace's export names it. */
export interface ExportedLink {
  readonly id: number;
  readonly code: string;
}

/**
 * The raw visit rows, read a page at a time by keyset (id), so an export of a million visits never
 * holds more than a page (ADR 0029).
 */
export interface VisitExportStore {
  /** The link's visit ranges after `afterFirstId`, by first id. */
  listVisitRanges(linkId: number, afterFirstId: number, limit: number): Promise<VisitIdRange[]>;
  /** The link's visits with ids in [fromId, toId] and times in [from, to), by id, at most `limit`. */
  listVisits(query: VisitPageQuery): Promise<ExportedVisit[]>;
  /** The workspace's links (deleted ones too: their visits are still kept) after `afterId`, by id. */
  listWorkspaceLinks(workspaceId: number, afterId: number, limit: number): Promise<ExportedLink[]>;
}
