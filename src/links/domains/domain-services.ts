import type { WorkspaceAccess } from '../../accounts/workspace-access.js';
import type { UrlPolicy } from '../../core/canonical-url.js';
import type { DomainChallenges, DomainStore } from '../../core/domain-ports.js';
import type { Clock } from '../../core/ports.js';

/** What the custom-domain use cases receive (ADR 0036): `deps.links.domains`. */
export interface DomainServices {
  readonly store: DomainStore;
  readonly challenges: DomainChallenges;
  readonly clock: Clock;
  readonly workspaces: Pick<WorkspaceAccess, 'requireRole'>;
  /** The rules of link destinations, which the root and not-found redirects follow too. */
  readonly urlPolicy: UrlPolicy;
  /** The instance's own hosts (BASE_URL's), which no workspace may register. */
  readonly ownHosts: readonly string[];
  /** Called after a domain is verified, changed or deleted: the redirect path's map of hosts follows. */
  readonly changed: () => Promise<void>;
}
