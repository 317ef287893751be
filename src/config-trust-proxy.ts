import proxyAddr from '@fastify/proxy-addr';
import type { EnvReader } from './config-env-reader.js';

/**
 * Which `X-Forwarded-For` hops are believed (docs/configuration.md, "Behind a proxy"): none
 * (`false`: the socket's address is the client), all (`true`), the first N hops counted from the
 * socket, or the proxies at these addresses, CIDR ranges and names (`loopback`, `linklocal`,
 * `uniquelocal`).
 */
export type TrustProxy = boolean | number | readonly string[];

const NAMES = 'loopback, linklocal, uniquelocal';

export function readTrustProxy(read: EnvReader): TrustProxy {
  const text = read.optional('TRUST_PROXY');
  if (text === undefined) return false;
  const lower = text.toLowerCase();
  if (['true', 'yes', 'on'].includes(lower)) return true;
  if (['false', 'no', 'off', '0'].includes(lower)) return false;
  if (/^\d+$/.test(lower)) return Number(lower);
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const wrong = entries.filter((entry) => !compiles(entry));
  if (wrong.length > 0) {
    read.problems.push(`TRUST_PROXY must be true, false, a number of hops, or addresses, CIDR ranges and ${NAMES} separated by commas (not an address: "${wrong.join('", "')}")`);
    return false;
  }
  return entries;
}

function compiles(entry: string): boolean {
  try {
    proxyAddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}
