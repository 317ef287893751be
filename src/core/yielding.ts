import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Reading and checking rows is synchronous work on the event loop that also serves redirects:
 * after `maxBusyMs` of it in a row, everything waiting runs first. Async iteration alone does not
 * do that, since a generator's next value resolves in a microtask, ahead of any I/O. Reading
 * stops, with the signal's reason, once `signal` is aborted.
 */
export async function* yieldingEvery<T>(items: AsyncIterable<T>, maxBusyMs: number, signal?: AbortSignal): AsyncGenerator<T> {
  let busySince = performance.now();
  for await (const item of items) {
    if (performance.now() - busySince > maxBusyMs) {
      await nextTurn();
      busySince = performance.now();
    }
    signal?.throwIfAborted();
    yield item;
  }
}
