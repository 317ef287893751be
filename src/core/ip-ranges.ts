import ipaddr from 'ipaddr.js';

// ipaddr.js files the deprecated IPv4-compatible block (::a.b.c.d, RFC 4291) under `unicast`,
// yet `[::127.0.0.1]` embeds a loopback address, so it is refused explicitly.
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * True for any address a server must never be pointed at: everything ipaddr.js does not call
 * `unicast` (loopback, private, link-local incl. 169.254.169.254, unique-local, unspecified,
 * CGNAT, multicast, broadcast, reserved and benchmarking, NAT64, 6to4, Teredo …).
 * IPv4-mapped IPv6 is judged by the IPv4 address inside it.
 * Text that is not an IP address counts as forbidden: an address we cannot read is one we cannot vouch for.
 */
export function isForbiddenAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv6' && address.match(IPV4_COMPATIBLE)) return true;
  return address.range() !== 'unicast';
}
