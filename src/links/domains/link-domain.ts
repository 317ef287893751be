import { parseDomainHostname } from '../../core/custom-domain.js';
import { domainKeyOf } from '../../core/custom-domain.js';
import { ValidationError } from '../../core/errors.js';
import type { DomainStore } from '../../core/domain-ports.js';

export interface LinkDomainDeps {
  /** The default domain's key (core/link.ts). */
  readonly domain: string;
  readonly domains: Pick<DomainStore, 'findDomainByHostname'>;
  readonly urlPolicy: { readonly shortHosts: readonly string[] };
}

/**
 * The key a new link of `workspaceId` is stored under for the hostname asked for: BASE_URL's host
 * (or none) is the default domain; any other name must be a verified domain of that very workspace.
 */
export async function linkDomainKey(deps: LinkDomainDeps, workspaceId: number, hostname: string | undefined): Promise<string> {
  if (hostname === undefined || deps.urlPolicy.shortHosts.includes(hostname.toLowerCase())) return deps.domain;
  let name: string;
  try {
    name = parseDomainHostname(hostname, deps.urlPolicy.shortHosts);
  } catch {
    throw notVerified(hostname);
  }
  const domain = await deps.domains.findDomainByHostname(name);
  if (domain === undefined || domain.workspaceId !== workspaceId || domain.status !== 'verified') throw notVerified(name);
  return domainKeyOf(domain.id);
}

function notVerified(hostname: string): ValidationError {
  return new ValidationError('domain_not_verified', `${hostname} is not a verified domain of this workspace.`, { field: 'domain' });
}
