/**
 * Every cache key and channel name, spelled once. A link is cached under its (domain, code);
 * Redis names carry the deployment's prefix (REDIS_KEY_PREFIX) so that several deployments, or
 * several test files, can share one Redis.
 */
import { DEFAULT_DOMAIN } from '../core/link.js';

/**
 * The in-process key of a link: its bare code on the default domain (no string built per cache
 * hit), `domain/code` elsewhere. A code never holds a slash, so the two spellings never meet.
 */
export function localLinkKey(domain: string, code: string): string {
  return domain === DEFAULT_DOMAIN ? code : `${domain}/${code}`;
}

/** The Redis key of a link's cached entry. */
export function redisLinkKey(prefix: string, domain: string, code: string): string {
  return `${prefix}link:${domain}/${code}`;
}

/** The glob that matches every cached link of this deployment (for a full resync). */
export function redisLinkKeyPattern(prefix: string): string {
  return `${prefix}link:*`;
}

/** The pub/sub channel on which instances announce that a code changed. */
export function invalidationChannel(prefix: string): string {
  return `${prefix}invalidate`;
}

/** An invalidation message names one link; the domain never contains a slash. */
export function invalidationMessage(domain: string, code: string): string {
  return `${domain}/${code}`;
}

export function parseInvalidationMessage(message: string): { domain: string; code: string } | undefined {
  const slash = message.indexOf('/');
  if (slash <= 0 || slash === message.length - 1) return undefined;
  return { domain: message.slice(0, slash), code: message.slice(slash + 1) };
}

/** The namespace of the rate limiter's counters in Redis. */
export function rateLimitNamespace(prefix: string): string {
  return `${prefix}rate-limit:`;
}

/** Published after a full resync: every instance drops its whole in-process tier. */
export const RESYNC_MESSAGE = '*';
