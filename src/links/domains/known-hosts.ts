import { domainKeyOf } from '../../core/custom-domain.js';
import type { DomainStore, ServedDomain } from '../../core/domain-ports.js';

/**
 * The verified custom domains by hostname, held in memory for the redirect path (ADR 0036): one
 * `Map.get` of the request's host, no I/O. `refresh` reloads it from the database after a change
 * here, and every `intervalMs` for changes made by other instances or processes.
 */
export class KnownHosts {
  private hosts = new Map<string, ServedDomain>();
  private byKey = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private pending: Promise<void> | undefined;

  constructor(private readonly store: Pick<DomainStore, 'listVerifiedDomains'>, private readonly onError?: (error: unknown) => void) {}

  /** How many verified domains there are: none, and the redirect path does not look. */
  get size(): number {
    return this.hosts.size;
  }

  /** The verified domain answering this host (lower-case, no port, as browsers and proxies send it), if any. */
  find(host: string | undefined): ServedDomain | undefined {
    return host === undefined ? undefined : this.hosts.get(host);
  }

  /** The hostname of a domain key, for a link's short URL; undefined for the default domain or a deleted domain. */
  hostnameOf(key: string): string | undefined {
    return this.byKey.get(key);
  }

  /** The keys of every verified domain. */
  keys(): IterableIterator<string> {
    return this.byKey.keys();
  }

  /** The verified domain of this hostname (normalised by the caller) when `workspaceId` holds it. */
  findOfWorkspace(hostname: string, workspaceId: number): ServedDomain | undefined {
    const served = this.hosts.get(hostname);
    return served?.workspaceId === workspaceId ? served : undefined;
  }

  /** Reloads the map; concurrent calls share one load. A failed load keeps the map it had. */
  refresh(): Promise<void> {
    this.pending ??= this.load().finally(() => { this.pending = undefined; });
    return this.pending;
  }

  private async load(): Promise<void> {
    try {
      const domains = await this.store.listVerifiedDomains();
      const hosts = new Map<string, ServedDomain>();
      const byKey = new Map<string, string>();
      for (const domain of domains) {
        const key = domainKeyOf(domain.id);
        hosts.set(domain.hostname, { hostname: domain.hostname, key, workspaceId: domain.workspaceId, rootRedirectUrl: domain.rootRedirectUrl, notFoundRedirectUrl: domain.notFoundRedirectUrl });
        byKey.set(key, domain.hostname);
      }
      this.hosts = hosts;
      this.byKey = byKey;
    } catch (error) {
      this.onError?.(error);
    }
  }

  /** Refreshes every `intervalMs` until `stop`; the timer never keeps the process alive. */
  start(intervalMs: number): void {
    this.timer ??= setInterval(() => void this.refresh(), intervalMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
