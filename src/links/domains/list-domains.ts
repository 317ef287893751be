import type { CustomDomain } from '../../core/domain-ports.js';
import type { Principal } from '../../core/principal.js';
import { findDomainOrThrow, requireDomainAdmin } from './domain-access.js';
import type { DomainServices } from './domain-services.js';

export async function listDomains(deps: DomainServices, principal: Principal, workspaceId: number): Promise<CustomDomain[]> {
  await requireDomainAdmin(deps, principal, workspaceId);
  return deps.store.listDomains(workspaceId);
}

export async function getDomain(deps: DomainServices, principal: Principal, workspaceId: number, domainId: number): Promise<CustomDomain> {
  await requireDomainAdmin(deps, principal, workspaceId);
  return findDomainOrThrow(deps, workspaceId, domainId);
}
