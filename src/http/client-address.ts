import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config-trust-proxy.js';

/** Whether the hop at `address`, `hop` steps from the socket (0: the socket's peer), may say who sent the request. */
export type TrustedHop = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as one function, given to Fastify (its `request.ip`, which the API's rate limits and
 * the logs use) and to the redirect path alike, so that both believe the same hops. A hop count
 * trusts the first N hops whoever they are: it fits a proxy that is the only way in.
 */
export function trustedHop(trust: TrustProxy): TrustedHop | false {
  if (trust === false) return false;
  if (trust === true) return () => true;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return proxyAddr.compile([...trust]);
}

/** The client's address: the socket's peer, or the nearest `X-Forwarded-For` entry past the trusted hops. */
export function clientAddressOf(trusted: TrustedHop | false): (req: IncomingMessage) => string {
  if (trusted === false) return (req) => req.socket.remoteAddress ?? '';
  return (req) => proxyAddr(req, trusted);
}

/**
 * The address a redirect's visit is recorded with, for its country: none when the request asks not
 * to be tracked (`DNT: 1` or `Sec-GPC: 1`). The visit is still counted, with its class.
 */
export function visitorAddressOf(trusted: TrustedHop | false): (req: IncomingMessage) => string | undefined {
  const addressOf = clientAddressOf(trusted);
  return (req) => (req.headers.dnt === '1' || req.headers['sec-gpc'] === '1' ? undefined : addressOf(req));
}
