import { LinkforgeError } from '../../core/errors.js';
import type { Principal } from '../../core/principal.js';
import { requireDomainAdmin } from './domain-access.js';
import type { DomainServices } from './domain-services.js';

/**
 * The domain stops answering at once. Its links stay, stored under the domain's own key
 * (core/custom-domain.ts), which no later registration of the same hostname ever gets.
 */
export async function deleteDomain(deps: DomainServices, principal: Principal, workspaceId: number, domainId: number): Promise<void> {
  await requireDomainAdmin(deps, principal, workspaceId);
  if (!await deps.store.deleteDomain(workspaceId, domainId)) throw new LinkforgeError('domain_not_found');
  await deps.changed();
}
