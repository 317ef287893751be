import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a proxy or client may pass as a request id: short, and only characters that need no
 * escaping in a log line or a header. Anything else (a kilobyte, a newline, a quote) is replaced,
 * so a caller can neither forge log structure nor make every line of a request heavy.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:=+/-]{1,64}$/;

/** The request's id: the incoming `X-Request-Id` when it is short and safe, else a fresh UUID. */
export function requestIdOf(headers: IncomingHttpHeaders): string {
  const incoming = headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
