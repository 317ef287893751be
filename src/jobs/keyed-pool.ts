/**
 * Runs `work` on every item, at most `limit` at once and never two items of the same key at once
 * (the health check: a few destinations at a time, one request at a time per host). Items wait in
 * their order; one whose key is busy is passed over for the next. After `shouldStop()` turns true
 * or a work item fails, nothing new starts; the returned promise settles once the running ones end,
 * rejecting with the first failure.
 */
export function runKeyedPool<T>(
  items: readonly T[],
  options: { readonly limit: number; readonly keyOf: (item: T) => string; readonly shouldStop: () => boolean },
  work: (item: T) => Promise<void>,
): Promise<void> {
  const waiting = [...items];
  const busy = new Set<string>();
  let running = 0;
  let failure: { error: unknown } | undefined;
  return new Promise((resolve, reject) => {
    const dispatch = () => {
      if (failure || options.shouldStop()) waiting.length = 0;
      for (let index = 0; index < waiting.length && running < Math.max(1, options.limit);) {
        const item = waiting[index]!;
        const key = options.keyOf(item);
        if (busy.has(key)) {
          index += 1;
          continue;
        }
        waiting.splice(index, 1);
        busy.add(key);
        running += 1;
        work(item)
          .catch((error: unknown) => { failure ??= { error }; })
          .finally(() => {
            busy.delete(key);
            running -= 1;
            dispatch();
          });
      }
      if (running === 0) {
        if (failure) reject(failure.error);
        else resolve();
      }
    };
    dispatch();
  });
}
