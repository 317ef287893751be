/** Ports of the destination health check (ADR 0015). */

/** What the checker needs of a link: where it points, whose it is and when that was last asked. */
export interface LinkToCheck {
  readonly id: number;
  readonly originalUrl: string;
  /** null for anonymous links, which share one budget (docs/adr/0015). */
  readonly workspaceId: number | null;
  readonly lastCheckedAt: number | null;
}

/** A place in the check order (never-checked first, then oldest check, ties by id). */
export type CheckOrderPosition = Pick<LinkToCheck, 'id' | 'lastCheckedAt'>;

export interface HealthCheckStore {
  /**
   * ACTIVE links not past their expiry at `now`, never-checked first, then by oldest
   * `last_checked_at` (ties by id), at most `limit` of them; with `after`, only those strictly
   * after that place in the order, so a run pages on past links it left unchecked.
   */
  nextLinksToCheck(limit: number, now: number, after?: CheckOrderPosition): Promise<LinkToCheck[]>;
  /** Stores the final HTTP status (0: unreachable or refused) and when it was asked. */
  recordCheck(id: number, status: number, checkedAt: number): Promise<void>;
}
