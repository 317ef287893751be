import type { VisitFacts } from './visit-ports.js';
import type { LinkOptions } from './link-options.js';
import type { LinkRedirectStatus, LinkStatus } from './link.js';

/** One recorded visit as an export carries it: the link is implied by where it sits. */
export interface TransferVisit extends VisitFacts {
  readonly visitedAt: number;
  readonly latencyMs: number;
}

/** A link's tag as an export carries it: its name, and its colour where the format keeps one (ADR 0030). */
export interface TransferTag {
  readonly name: string;
  readonly colour?: string;
}

/** Everything of a link that moves between databases; ids, owners and health checks do not. */
export interface TransferLink {
  readonly code: string;
  /** The custom domain's hostname the link answers on (ADR 0036); absent: the default short domain. */
  readonly domain?: string;
  readonly originalUrl: string;
  readonly status: LinkStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly expiresAt: number | null;
  readonly deletedAt: number | null;
  readonly redirectCount: number;
  readonly humanCount: number;
  readonly botCount: number;
  readonly previewCount: number;
  readonly avgRedirectMs: number;
  /** The link's own redirect status; null (or absent, from other formats): the instance's rule. */
  readonly redirectStatus?: LinkRedirectStatus | null;
  /** The link's options (core/link-options.ts); null or absent: none. */
  readonly options?: LinkOptions | null;
  /** The bcrypt hash of its password, carried as the hash, never as the password. */
  readonly passwordHash?: string | null;
  readonly maxClicks?: number | null;
  /** Absent with a limit: all of `maxClicks` are left. */
  readonly clicksLeft?: number | null;
  /** Present only in exports made with visits. */
  readonly visits?: readonly TransferVisit[];
  /** In name order; absent or empty when it has none. */
  readonly tags?: readonly TransferTag[];
}

/** A link ready to be written: validated, with its canonical form. */
export interface ImportableLink extends TransferLink {
  readonly normalizedUrl: string;
  /** The key the link is stored under when it is a custom domain's; the target's domain otherwise. */
  readonly domainKey?: string;
}

export interface ImportTarget {
  readonly domain: string;
  readonly workspaceId: number;
  /** Who the links belong to inside the workspace; null when an operator imports them. */
  readonly ownerId: number | null;
}

/** Per link, in the order given: written, already there (same code, workspace and URL), or refused by an index. */
export type ImportOutcome =
  | { readonly kind: 'created'; readonly linkId: number }
  | { readonly kind: 'existing' }
  | { readonly kind: 'rejected'; readonly reason: 'code_taken' | 'url_already_shortened'; readonly detail: string };

export interface ExportFilter {
  /** The domain keys exported: the default one and the custom domains' (ADR 0036). */
  readonly domains: readonly string[];
  /** Every workspace's links when absent (anonymous links are never exported). */
  readonly workspaceId?: number;
  /** Only these links (a selection). */
  readonly linkIds?: readonly number[];
  /** Only links with a larger id (the page cursor). */
  readonly afterId: number;
  readonly limit: number;
}

export interface ExportedLink extends TransferLink {
  readonly id: number;
  /** Its domain key, as stored. */
  readonly domainKey: string;
}

/**
 * Bulk movement of links in and out. Imports rest on the unique indexes: every row is inserted
 * with "on conflict do nothing" and only the rows that did not go in are read back to say why.
 */
export interface LinkTransferStore {
  /** One transaction per call; with `dryRun` it is rolled back after the outcomes are known. */
  insertImportedLinks(target: ImportTarget, links: readonly ImportableLink[], options: { readonly dryRun: boolean; readonly now: number }): Promise<ImportOutcome[]>;
  /** Ascending id. */
  listLinksForExport(filter: ExportFilter): Promise<ExportedLink[]>;
  /** Each link's tags with their colours, in name order; links without tags are absent. */
  listTagsForExport(linkIds: readonly number[]): Promise<Map<number, TransferTag[]>>;
  /** Each link's visits, oldest first. */
  listVisitsForExport(linkIds: readonly number[]): Promise<Map<number, TransferVisit[]>>;
  /** The id of the only workspace, when the database has exactly one (an operator's default target); else whether there are none or several. */
  findSoleWorkspaceId(): Promise<number | 'none' | 'several'>;
}

/**
 * One row of an import file as a reader understood it, before any rule of ours is applied: the
 * short code it had, its destination as written, and whatever else the format carries. `problem`
 * says why a row could not be read at all (a missing destination, a date that is not one).
 */
export interface ImportCandidate {
  /** 1-based position among the file's data rows (the header is not counted). */
  readonly row: number;
  readonly code: string;
  readonly url: string;
  readonly fields: Partial<Omit<TransferLink, 'code' | 'originalUrl'>>;
  readonly problem?: string;
}
