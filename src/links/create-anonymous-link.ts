import { parseDestination, type UrlPolicy } from '../core/canonical-url.js';
import { CodeSpaceExhaustedError } from '../core/errors.js';
import type { Link } from '../core/link.js';
import type { Clock, LinkCacheInvalidator, LinkStore } from '../core/ports.js';
import { hashSecret, newSecret } from '../core/secret-token.js';
import { isReservedWord, MAX_RANDOM_ATTEMPTS, randomCode } from '../core/short-code.js';

export interface CreateAnonymousLinkDeps {
  readonly store: LinkStore;
  readonly cache: LinkCacheInvalidator;
  readonly clock: Clock;
  readonly urlPolicy: UrlPolicy;
  readonly domain: string;
  readonly anonTtlMs: number;
  readonly anonCodeLength: number;
  readonly generateCode?: (length: number) => string;
}

export interface CreatedAnonymousLink {
  readonly link: Link;
  /** Shown once to the creator; only its hash is stored. */
  readonly claimToken: string;
}

/**
 * A TEMPORARY link with a random code. Anonymous links are never deduplicated, so the only
 * conflict is a code collision, retried with a fresh code.
 */
export async function createAnonymousLink(deps: CreateAnonymousLinkDeps, rawUrl: unknown): Promise<CreatedAnonymousLink> {
  const destination = parseDestination(rawUrl, deps.urlPolicy);
  const claimToken = newSecret();
  const claimTokenHash = hashSecret(claimToken);
  const now = deps.clock.now();
  const generate = deps.generateCode ?? randomCode;
  for (let attempt = 0; attempt < MAX_RANDOM_ATTEMPTS; attempt++) {
    const code = generate(deps.anonCodeLength);
    if (isReservedWord(code)) continue;
    const result = await deps.store.insertLink({
      domain: deps.domain,
      code,
      ...destination,
      linkType: 'TEMPORARY',
      workspaceId: null,
      ownerId: null,
      claimTokenHash,
      createdAt: now,
      expiresAt: now + deps.anonTtlMs,
    });
    if (result.ok) {
      await deps.cache.invalidate(deps.domain, code);
      return { link: result.link, claimToken };
    }
  }
  throw new CodeSpaceExhaustedError(MAX_RANDOM_ATTEMPTS);
}
