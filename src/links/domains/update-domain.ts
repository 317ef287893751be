import { LinkforgeError } from '../../core/errors.js';
import type { CustomDomain } from '../../core/domain-ports.js';
import type { Principal } from '../../core/principal.js';
import { requireDomainAdmin } from './domain-access.js';
import { parseDomainRedirects, type DomainRedirectsRequest } from './domain-redirects.js';
import type { DomainServices } from './domain-services.js';

/** Sets or clears the root and not-found redirects; the hostname never changes (delete and add another). */
export async function updateDomain(deps: DomainServices, principal: Principal, workspaceId: number, domainId: number, request: DomainRedirectsRequest): Promise<CustomDomain> {
  await requireDomainAdmin(deps, principal, workspaceId);
  const updated = await deps.store.updateRedirects(workspaceId, domainId, parseDomainRedirects(request, deps.urlPolicy));
  if (updated === undefined) throw new LinkforgeError('domain_not_found');
  await deps.changed();
  return updated;
}
