/** A workspace's own short domain (ADR 0036). */
export interface CustomDomain {
  readonly id: number;
  readonly workspaceId: number;
  readonly hostname: string;
  readonly status: DomainStatus;
  /** The secret the TXT record or the HTTP challenge must show. */
  readonly verificationToken: string;
  readonly verifiedAt: number | null;
  readonly rootRedirectUrl: string | null;
  readonly notFoundRedirectUrl: string | null;
  readonly createdAt: number;
}

export type DomainStatus = 'pending' | 'verified';

export interface NewDomain {
  readonly workspaceId: number;
  readonly hostname: string;
  readonly verificationToken: string;
  readonly createdAt: number;
}

export interface DomainRedirects {
  readonly rootRedirectUrl?: string | null;
  readonly notFoundRedirectUrl?: string | null;
}

/** What the redirect path knows of a verified domain: the key its links are stored under and its own pages. */
export interface ServedDomain {
  readonly hostname: string;
  readonly key: string;
  readonly workspaceId: number;
  readonly rootRedirectUrl: string | null;
  readonly notFoundRedirectUrl: string | null;
}

/**
 * Persistence of custom domains. Hostnames are unique across the instance: an insert that meets
 * one answers `undefined`, never pre-checked. Throws StoreUnavailableError when the database is down.
 */
export interface DomainStore {
  insertDomain(domain: NewDomain): Promise<CustomDomain | undefined>;
  listDomains(workspaceId: number): Promise<CustomDomain[]>;
  findDomain(workspaceId: number, domainId: number): Promise<CustomDomain | undefined>;
  findDomainByHostname(hostname: string): Promise<CustomDomain | undefined>;
  updateRedirects(workspaceId: number, domainId: number, changes: DomainRedirects): Promise<CustomDomain | undefined>;
  /** Marks it verified (once: a verified domain keeps its first time). */
  markVerified(workspaceId: number, domainId: number, at: number): Promise<CustomDomain | undefined>;
  deleteDomain(workspaceId: number, domainId: number): Promise<boolean>;
  /** Every verified domain of the instance, for the redirect path's map of hosts. */
  listVerifiedDomains(): Promise<CustomDomain[]>;
}

/** Whether a hostname shows a token, by DNS TXT record or by this deployment's HTTP challenge. */
export interface DomainChallenges {
  /** 'dns' or 'http' when one of them shows the token; undefined when neither does (yet). */
  check(hostname: string, token: string): Promise<'dns' | 'http' | undefined>;
}
