import net from 'node:net';
import type { Resolver } from '../../src/jobs/destination-address.js';

/**
 * A DNS layer that answers from a table, the way a hostile or broken resolver could: names map to
 * whatever addresses the test says, unknown names are not found. `calls` counts the questions.
 */
export function fakeDns(table: Record<string, readonly string[] | (() => readonly string[])>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const entry = table[hostname];
    const addresses = typeof entry === 'function' ? entry() : entry;
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 as const : 4 as const }));
  };
  return Object.assign(resolve, { calls });
}
