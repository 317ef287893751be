import { hostnameOfHeader } from '../../core/custom-domain.js';
import type { DomainStore } from '../../core/domain-ports.js';
import { secretMatches, hashSecret } from '../../core/secret-token.js';

/**
 * The HTTP challenge's answer (ADR 0036): the token, when the request's Host is a registered domain
 * whose token it is; undefined otherwise. So only DNS pointing at this deployment makes a domain's
 * own address show its token.
 */
export async function answerChallenge(store: Pick<DomainStore, 'findDomainByHostname'>, host: string | undefined, token: string): Promise<string | undefined> {
  const hostname = hostnameOfHeader(host);
  if (hostname === '') return undefined;
  const domain = await store.findDomainByHostname(hostname);
  return domain !== undefined && secretMatches(token, hashSecret(domain.verificationToken)) ? domain.verificationToken : undefined;
}
