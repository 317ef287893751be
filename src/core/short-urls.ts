import { DEFAULT_DOMAIN } from './link.js';

/** A link's short address and the hostname it answers on (ADR 0036): BASE_URL's, or its custom domain's. */
export interface ShortUrls {
  shortUrlOf(domain: string, code: string): string;
  hostnameOf(domain: string): string;
}

/**
 * A custom domain's links are shown under `https://<hostname>/`: it is served behind a TLS
 * terminator (README "Custom domains"). A link whose domain was deleted keeps BASE_URL's form.
 */
export function shortUrls(baseUrl: string, hostnameOfKey: (key: string) => string | undefined): ShortUrls {
  const baseHost = new URL(baseUrl).hostname;
  return {
    shortUrlOf(domain, code) {
      const hostname = domain === DEFAULT_DOMAIN ? undefined : hostnameOfKey(domain);
      return hostname === undefined ? `${baseUrl}/${code}` : `https://${hostname}/${code}`;
    },
    hostnameOf(domain) {
      return (domain === DEFAULT_DOMAIN ? undefined : hostnameOfKey(domain)) ?? baseHost;
    },
  };
}
