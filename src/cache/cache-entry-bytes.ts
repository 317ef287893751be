import type { RedirectTarget } from '../core/link.js';

/**
 * What one cached link costs the heap beyond its key's and URL's characters: the target object,
 * the strings' headers and the LRU's own slots (measured: ~218 bytes beside a 70-character URL,
 * ADR 0020, amendment "a cache bounded in bytes, and what start-up no longer loads").
 */
const ENTRY_OVERHEAD_BYTES = 224;

/**
 * A cached link's size in the heap, erring high: a URL is ASCII after canonicalization (one byte
 * a character); a disabled reason may hold any character (two); a link's options are objects,
 * counted at twice their JSON.
 */
export function cacheEntryBytes(key: string, target: RedirectTarget): number {
  return ENTRY_OVERHEAD_BYTES + key.length + target.url.length
    + 2 * (target.disabledReason?.length ?? 0)
    + (target.extras === undefined ? 0 : 2 * JSON.stringify(target.extras).length);
}
