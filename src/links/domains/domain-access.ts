import { LinkforgeError } from '../../core/errors.js';
import type { CustomDomain } from '../../core/domain-ports.js';
import type { Principal, WorkspaceRole } from '../../core/principal.js';
import type { DomainServices } from './domain-services.js';

/** A domain changes where every link on it answers: owners and admins only; members 403, others 404. */
const MANAGERS: readonly WorkspaceRole[] = ['owner', 'admin'];

export async function requireDomainAdmin(deps: DomainServices, principal: Principal, workspaceId: number): Promise<void> {
  await deps.workspaces.requireRole(principal, workspaceId, MANAGERS);
}

export async function findDomainOrThrow(deps: DomainServices, workspaceId: number, domainId: number): Promise<CustomDomain> {
  const domain = await deps.store.findDomain(workspaceId, domainId);
  if (domain === undefined) throw new LinkforgeError('domain_not_found');
  return domain;
}
