import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits between two batches so redirects and other writers get the database and the event loop.
 * A pause of 0 still yields once; an aborted signal (shutdown) ends the wait at once.
 */
export async function pauseBetweenBatches(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  try {
    if (ms <= 0) await yieldToEventLoop(undefined, { signal });
    else await sleep(ms, undefined, { signal });
  } catch (error) {
    if ((error as { name?: string }).name !== 'AbortError') throw error;
  }
}
