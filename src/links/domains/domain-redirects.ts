import { parseDestination, type UrlPolicy } from '../../core/canonical-url.js';
import type { DomainRedirects } from '../../core/domain-ports.js';

export interface DomainRedirectsRequest {
  readonly rootRedirectUrl?: string | null;
  readonly notFoundRedirectUrl?: string | null;
}

/** The root and not-found redirects, each under the rules of a link's destination; null clears one, absent keeps it. */
export function parseDomainRedirects(request: DomainRedirectsRequest, policy: UrlPolicy): DomainRedirects {
  const parse = (raw: string | null | undefined) => (raw == null ? raw : parseDestination(raw, policy).originalUrl);
  return { rootRedirectUrl: parse(request.rootRedirectUrl), notFoundRedirectUrl: parse(request.notFoundRedirectUrl) };
}
