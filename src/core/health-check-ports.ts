/** Ports of the destination health check (SPEC section 8). */

/** What the checker needs of a link: where it points and when that was last asked. */
export interface LinkToCheck {
  readonly id: number;
  readonly originalUrl: string;
  readonly lastCheckedAt: number | null;
}

export interface HealthCheckStore {
  /**
   * ACTIVE links not past their expiry at `now`, never-checked first, then by oldest
   * `last_checked_at` (ties by id), at most `limit` of them.
   */
  nextLinksToCheck(limit: number, now: number): Promise<LinkToCheck[]>;
  /** Stores the final HTTP status (0: unreachable or refused) and when it was asked. */
  recordCheck(id: number, status: number, checkedAt: number): Promise<void>;
}
