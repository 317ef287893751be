import pino, { type Logger } from 'pino';
import type { LogDestination } from './log-destination.js';
import { stdoutDestination } from './pretty-lines.js';
import { redactedUrl, REDACTED_PATHS } from './redaction.js';

export interface Logging {
  readonly logger: Logger;
  readonly destination: LogDestination;
}

interface LoggedRequest {
  readonly method?: string;
  readonly url?: string;
  readonly host?: string;
  readonly socket?: { readonly remotePort?: number };
}

/**
 * Fastify's request fields, with the values of secret-looking query parameters replaced: a token
 * put in a URL (refused, but logged on the way in) must not reach the log. Headers are not logged,
 * nor is the client's address: no visitor's address is written anywhere (ADR 0028).
 */
function serializeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactedUrl(request.url),
    host: request.host,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The process's one logger: pino on a destination that drops what it cannot write (see
 * LogDestination); by default stdout, as JSON lines, or readable lines on a terminal.
 */
export function createLogging(level: string, destination: LogDestination = stdoutDestination()): Logging {
  const logger = pino({
    level,
    redact: { paths: [...REDACTED_PATHS], censor: '[Redacted]' },
    serializers: { req: serializeRequest, err: pino.stdSerializers.err },
  }, destination);
  return { logger, destination };
}
