import type { IncomingMessage } from 'node:http';
import { LinkforgeError } from '../../core/errors.js';

/**
 * A signal aborted (408 `upload_timeout`) once the request body has sent nothing for `timeoutMs`:
 * a client that stops sending, or a body that never reaches its closing boundary, is answered
 * instead of holding its request, its spool file and shutdown open. Watch only once the body is
 * piped somewhere: a `data` listener of its own would start it flowing.
 */
export function watchUploadIdle(body: IncomingMessage, timeoutMs: number): { readonly signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new LinkforgeError('upload_timeout', `The upload sent nothing for ${timeoutMs} ms.`)), timeoutMs);
  const onData = () => timer.refresh();
  // Once the whole body has arrived, whatever is slow is on this side, not the client's.
  const stop = () => {
    clearTimeout(timer);
    body.off('data', onData);
    body.off('end', stop);
  };
  body.on('data', onData);
  body.once('end', stop);
  if (body.complete) stop();
  return { signal: controller.signal, stop };
}

/** The promise's outcome, or the signal's reason as soon as it is aborted. */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
