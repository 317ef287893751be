import type { WorkspaceAccess } from '../accounts/workspace-access.js';
import type { KnownHosts } from './domains/known-hosts.js';
import type { DomainServices } from './domains/domain-services.js';
import type { CreateAnonymousLinkDeps } from './create-anonymous-link.js';
import type { ImportLinksDeps } from './import-links.js';
import type { OwnedLinkDeps } from './link-access.js';

/** What bulk import and export need: the transfer store, the domain links live under, who may import. */
export interface LinkTransferDeps extends ImportLinksDeps {
  readonly domain: string;
  /** The verified custom domains: an export names a link's domain by its hostname (ADR 0036). */
  readonly hosts: Pick<KnownHosts, 'keys' | 'hostnameOf' | 'findOfWorkspace'>;
  readonly workspaces: Pick<WorkspaceAccess, 'requireRole'>;
}

/** The links module's services bag, built once in deps.ts: one field per family of use cases. */
export interface LinkServices {
  /** `createAnonymousLink`. */
  readonly anonymous: CreateAnonymousLinkDeps;
  /** Owned links: create, manage, list, claim. */
  readonly owned: OwnedLinkDeps;
  /** `importLinks`, `exportLinks`, `findSoleWorkspaceId`. */
  readonly transfer: LinkTransferDeps;
  /** A workspace's custom domains (ADR 0036). */
  readonly domains: DomainServices;
}
