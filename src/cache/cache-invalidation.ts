import type { LinkCacheInvalidator, LocalLinkCache } from '../core/ports.js';

/** What the shared tier does when a link changes: drop its entry and tell every instance. */
export interface SharedInvalidation {
  /** Never rejects: what cannot reach Redis now is replayed when it returns. */
  invalidate(domain: string, code: string): Promise<void>;
}

/** Invalidation across every tier: this instance's memory at once, then Redis and the other instances. */
export class CacheInvalidation implements LinkCacheInvalidator {
  constructor(private readonly local: LocalLinkCache, private readonly shared?: SharedInvalidation) {}

  async invalidate(domain: string, code: string): Promise<void> {
    this.local.forget(domain, code);
    await this.shared?.invalidate(domain, code);
  }

  async markGone(domain: string, code: string, status: 'EXPIRED' | 'DELETED'): Promise<void> {
    this.local.markGone(domain, code, status);
    await this.shared?.invalidate(domain, code);
  }
}
