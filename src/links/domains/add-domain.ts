import { parseDomainHostname } from '../../core/custom-domain.js';
import { LinkforgeError } from '../../core/errors.js';
import type { CustomDomain } from '../../core/domain-ports.js';
import type { Principal } from '../../core/principal.js';
import { newSecret } from '../../core/secret-token.js';
import { requireDomainAdmin } from './domain-access.js';
import { parseDomainRedirects, type DomainRedirectsRequest } from './domain-redirects.js';
import type { DomainServices } from './domain-services.js';

export interface NewDomainRequest extends DomainRedirectsRequest {
  readonly hostname: string;
}

/** A pending domain with a fresh verification token; a hostname registered anywhere on the instance is a 409. */
export async function addDomain(deps: DomainServices, principal: Principal, workspaceId: number, request: NewDomainRequest): Promise<CustomDomain> {
  await requireDomainAdmin(deps, principal, workspaceId);
  const hostname = parseDomainHostname(request.hostname, deps.ownHosts);
  const redirects = parseDomainRedirects(request, deps.urlPolicy);
  const inserted = await deps.store.insertDomain({ workspaceId, hostname, verificationToken: newSecret('lfv_'), createdAt: deps.clock.now() });
  if (inserted === undefined) throw new LinkforgeError('domain_taken', `${hostname} is already registered on this service.`, { field: 'hostname' });
  if (redirects.rootRedirectUrl == null && redirects.notFoundRedirectUrl == null) return inserted;
  return (await deps.store.updateRedirects(workspaceId, inserted.id, redirects)) ?? inserted;
}
