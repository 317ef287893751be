import type { CheckOrderPosition, HealthCheckStore, LinkToCheck } from '../core/health-check-ports.js';

/**
 * The due links of one run, a page at a time in check order. It pages on from where the last page
 * ended rather than from the top, so links the run leaves unchecked (deferred) are not read again.
 * Checked links move to the end of the order, past every due one, so the walk ends at the first
 * link that is not due.
 */
export class DueLinkFeed {
  private after: CheckOrderPosition | undefined;
  private ended = false;

  constructor(
    private readonly store: HealthCheckStore,
    private readonly options: { readonly pageSize: number; readonly now: number; readonly isDue: (link: LinkToCheck) => boolean },
  ) {}

  /** The next page's due links; an empty list once none are left. */
  async nextPage(): Promise<LinkToCheck[]> {
    if (this.ended) return [];
    const page = await this.store.nextLinksToCheck(this.options.pageSize, this.options.now, this.after);
    this.after = page.at(-1);
    // Oldest first, so the due links are a prefix of the page.
    const due = page.filter(this.options.isDue);
    if (due.length < page.length || page.length < this.options.pageSize) this.ended = true;
    return due;
  }
}
