import { challengeRecordName, CHALLENGE_PATH_PREFIX } from '../../core/custom-domain.js';
import { LinkforgeError } from '../../core/errors.js';
import type { CustomDomain } from '../../core/domain-ports.js';
import type { Principal } from '../../core/principal.js';
import { findDomainOrThrow, requireDomainAdmin } from './domain-access.js';
import type { DomainServices } from './domain-services.js';

/**
 * Verified when the DNS TXT record or this deployment's HTTP challenge shows the domain's token
 * (ADR 0036); a verified domain stays verified. Neither: 409 naming both ways.
 */
export async function verifyDomain(deps: DomainServices, principal: Principal, workspaceId: number, domainId: number): Promise<CustomDomain> {
  await requireDomainAdmin(deps, principal, workspaceId);
  const domain = await findDomainOrThrow(deps, workspaceId, domainId);
  if (domain.status === 'verified') return domain;
  const shown = await deps.challenges.check(domain.hostname, domain.verificationToken);
  if (shown === undefined) {
    throw new LinkforgeError('domain_verification_failed',
      `Neither a TXT record ${challengeRecordName(domain.hostname)} nor http://${domain.hostname}${CHALLENGE_PATH_PREFIX}${domain.verificationToken} shows the token yet.`);
  }
  const verified = await deps.store.markVerified(workspaceId, domainId, deps.clock.now());
  if (verified === undefined) throw new LinkforgeError('domain_not_found');
  await deps.changed();
  return verified;
}
