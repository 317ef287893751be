/** A read-only, revocable address of one link's stats page (ADR 0029). The token itself is never stored. */
export interface LinkShare {
  readonly id: number;
  readonly linkId: number;
  readonly createdBy: number | null;
  readonly createdAt: number;
}

export interface NewLinkShare {
  readonly linkId: number;
  readonly tokenHash: string;
  readonly createdBy: number;
  readonly now: number;
}

/** A link has at most one active share: creating one revokes the one before (a unique index holds this). */
export interface LinkShareStore {
  /** Revokes the link's active share, if any, and stores the new one, in one transaction. */
  replaceShare(share: NewLinkShare): Promise<LinkShare>;
  findActiveShare(linkId: number): Promise<LinkShare | undefined>;
  /** Whether there was an active share to revoke. */
  revokeShare(linkId: number, now: number): Promise<boolean>;
  /** The link of the active share with this token hash. */
  findSharedLinkId(tokenHash: string): Promise<number | undefined>;
}
