import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { VisitBatch, VisitWriter } from '../core/visit-ports.js';
import type { Clock } from '../core/ports.js';
import { VisitFlusher, MAX_ATTEMPTS } from './visit-flusher.js';
import { VisitBuffer } from './visit-buffer.js';
import type { PlaceOf } from './classified-batch.js';
import type { VisitorSaltStore } from '../core/visitor-ports.js';
import { VisitorSalts } from './visitor-salts.js';

/** The visit buffer the redirect path appends to, and the flusher that empties it. */
export interface VisitPipeline {
  readonly buffer: VisitBuffer;
  readonly flusher: VisitFlusher;
  /** The day salts of visitor ids, which an A/B split's variant is drawn from too; absent without a salt store. */
  readonly salts?: VisitorSalts;
}

export function createVisitPipeline(
  settings: Config['analytics'], writer: VisitWriter, clock: Clock, logger?: Pick<Logger, 'warn'>, placeOf?: PlaceOf, saltStore?: VisitorSaltStore,
  onFlushed?: (batch: VisitBatch) => Promise<void>,
): VisitPipeline {
  const salts = saltStore && new VisitorSalts(saltStore, clock, (error) => logger?.warn({ err: error }, 'the day salt of visitor ids could not be had; this flush counts no visitor'));
  const buffer = new VisitBuffer(settings.bufferMax, () => clock.now());
  const flusher = new VisitFlusher({
    buffer,
    writer,
    intervalMs: settings.flushIntervalMs,
    maxEvents: settings.flushMaxEvents,
    placeOf,
    saltOf: salts && ((day) => salts.saltOf(day)),
    onError: (error) => logger?.warn({ err: error }, 'analytics flush failed; its visits are kept for the next one'),
    onGiveUp: (visits, error) => logger?.warn({ err: error, visits, attempts: MAX_ATTEMPTS }, 'analytics flush failed too often; its visits are dropped'),
    onFlushed,
  });
  return { buffer, flusher, salts };
}
