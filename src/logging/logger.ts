import pino, { type Logger } from 'pino';
import { LogDestination } from './log-destination.js';

export interface Logging {
  readonly logger: Logger;
  readonly destination: LogDestination;
}

/** The process's one logger: pino on a destination that drops what it cannot write (see LogDestination). */
export function createLogging(level: string, destination: LogDestination = new LogDestination()): Logging {
  return { logger: pino({ level }, destination), destination };
}
