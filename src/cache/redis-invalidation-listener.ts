import type { Redis } from 'ioredis';
import type { LocalLinkCache } from '../core/ports.js';
import { invalidationChannel, parseInvalidationMessage, RESYNC_MESSAGE } from './cache-keys.js';

/**
 * Keeps this instance's in-process tier in step with changes made on any instance. Messages
 * published while the subscriber was away are lost, so each time it is subscribed again the whole
 * tier is dropped: the next lookups go to Redis and the database.
 */
export function listenForInvalidations(subscriber: Redis, prefix: string, local: LocalLinkCache): void {
  const channel = invalidationChannel(prefix);
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    if (message === RESYNC_MESSAGE) return local.clear();
    const link = parseInvalidationMessage(message);
    if (link) local.forget(link.domain, link.code);
  });
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).then(() => local.clear(), () => {});
  });
}
