import { Resolver as DnsResolver } from 'node:dns/promises';
import http from 'node:http';
import { challengeRecordName, CHALLENGE_PATH_PREFIX } from '../core/custom-domain.js';
import type { DomainChallenges } from '../core/domain-ports.js';
import { addressPolicy, pinnedLookup, vetHost, type AddressPolicy, type Resolver } from './destination-address.js';

const TIMEOUT_MS = 5_000;
const MAX_BODY_BYTES = 1024;

export interface DomainChallengeOptions {
  /** DOMAIN_DNS_SERVERS (`address` or `address:port`); the system's servers when empty. */
  readonly dnsServers: readonly string[];
  /** ALLOW_PRIVATE_DESTINATIONS: whether the HTTP challenge may reach internal addresses. */
  readonly allowPrivate: boolean;
  /** The HTTP challenge's port: 80, except in tests (DOMAIN_CHALLENGE_HTTP_PORT). */
  readonly httpPort: number;
}

/**
 * Verification checks (ADR 0036), through the resolver the deployment is given: the TXT record
 * `_linkforge-challenge.<host>`, then `GET http://<host>/.well-known/linkforge-challenge/<token>`
 * connected to the address that resolver gave, vetted like the health check's (no internal
 * address unless allowed) and pinned, so no second DNS answer is ever the one connected to.
 */
export function domainChallenges(options: DomainChallengeOptions): DomainChallenges {
  const dns = new DnsResolver({ timeout: TIMEOUT_MS, tries: 2 });
  if (options.dnsServers.length > 0) dns.setServers([...options.dnsServers]);
  const resolve: Resolver = async (hostname) => (await dns.resolve4(hostname)).map((address) => ({ address, family: 4 as const }));
  const policy = addressPolicy(resolve, options.allowPrivate);
  return {
    async check(hostname, token) {
      if (await txtShows(dns, hostname, token)) return 'dns';
      if (await httpShows(hostname, token, policy, options.httpPort)) return 'http';
      return undefined;
    },
  };
}

async function txtShows(dns: DnsResolver, hostname: string, token: string): Promise<boolean> {
  try {
    const records = await dns.resolveTxt(challengeRecordName(hostname));
    return records.some((chunks) => chunks.join('') === token);
  } catch {
    return false; // no record (ENODATA, ENOTFOUND) or no answer: the HTTP challenge may still show it
  }
}

async function httpShows(hostname: string, token: string, policy: AddressPolicy, port: number): Promise<boolean> {
  try {
    const address = await vetHost(hostname, policy);
    const body = await new Promise<string>((resolve, reject) => {
      const request = http.get({
        host: hostname, port, path: CHALLENGE_PATH_PREFIX + token, lookup: pinnedLookup(address), agent: false, timeout: TIMEOUT_MS,
        headers: { 'user-agent': 'Linkforge-DomainCheck/0.1' },
      }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          resolve('');
          return;
        }
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          if (text.length > MAX_BODY_BYTES) request.destroy();
        });
        response.on('end', () => resolve(text));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error('challenge timed out')));
      request.on('error', reject);
    });
    return body.trim() === token;
  } catch {
    return false;
  }
}
