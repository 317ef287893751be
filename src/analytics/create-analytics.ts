import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { AnalyticsStore } from '../core/analytics-ports.js';
import type { Clock } from '../core/ports.js';
import { AnalyticsFlusher, MAX_ATTEMPTS } from './analytics-flusher.js';
import { VisitBuffer } from './visit-buffer.js';

/** The visit buffer the redirect path appends to, and the flusher that empties it. */
export interface Analytics {
  readonly buffer: VisitBuffer;
  readonly flusher: AnalyticsFlusher;
}

export function createAnalytics(settings: Config['analytics'], store: AnalyticsStore, clock: Clock, logger?: Pick<Logger, 'warn'>): Analytics {
  const buffer = new VisitBuffer(settings.bufferMax, () => clock.now());
  const flusher = new AnalyticsFlusher({
    buffer,
    store,
    intervalMs: settings.flushIntervalMs,
    maxEvents: settings.flushMaxEvents,
    onError: (error) => logger?.warn({ err: error }, 'analytics flush failed; its visits are kept for the next one'),
    onGiveUp: (visits, error) => logger?.warn({ err: error, visits, attempts: MAX_ATTEMPTS }, 'analytics flush failed too often; its visits are dropped'),
  });
  return { buffer, flusher };
}
