import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { isForbiddenAddress } from '../core/ip-ranges.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Every address a host name resolves to. The system's (dns.lookup) in production; tests pass their own. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** The destination is, or resolves to, an address the check must never reach. */
export class DestinationRefusedError extends Error {
  readonly code = 'destination_refused';
  constructor(hostname: string, address: string) {
    super(`${hostname} is or resolves to ${address}, an internal or non-unicast address`);
    this.name = 'DestinationRefusedError';
  }
}

export interface AddressPolicy {
  readonly resolve: Resolver;
  readonly isForbidden: (address: string) => boolean;
}

/** ALLOW_PRIVATE_DESTINATIONS lets tests point the check at their own servers on 127.0.0.1. */
export function addressPolicy(resolve: Resolver, allowPrivate: boolean): AddressPolicy {
  return { resolve, isForbidden: allowPrivate ? () => false : isForbiddenAddress };
}

/**
 * The one address a request to `hostname` (a WHATWG URL's hostname) may connect to. An IP literal
 * is judged as it is: Node never calls `lookup` for one. A name is refused if any of its addresses
 * is forbidden, not only the first: the connection could otherwise fall back to the forbidden one.
 */
export async function vetHost(hostname: string, policy: AddressPolicy): Promise<ResolvedAddress> {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const literal = net.isIP(bare);
  const addresses = literal === 0 ? await policy.resolve(bare) : [{ address: bare, family: literal as 4 | 6 }];
  const first = addresses[0];
  if (first === undefined) throw Object.assign(new Error(`${bare} has no address`), { code: 'ENOTFOUND' });
  const forbidden = addresses.find(({ address }) => policy.isForbidden(address));
  if (forbidden) throw new DestinationRefusedError(bare, forbidden.address);
  return first;
}

/**
 * A `lookup` for http(s).request that answers the vetted address and never asks DNS again, so a
 * second answer (DNS rebinding) can never be the one connected to. Node 20 asks with `all: true`
 * when it tries address families in turn (autoSelectFamily).
 */
export function pinnedLookup(vetted: ResolvedAddress): net.LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: vetted.address, family: vetted.family }]);
    else callback(null, vetted.address, vetted.family);
  };
}
