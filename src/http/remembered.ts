import { LRUCache } from 'lru-cache';

/**
 * `compute` with its last `max` answers kept by key: for the pure readings a routed redirect makes
 * of its request (the device from the User-Agent, the languages, the country of an address), which
 * repeat from one request to the next and cost the hot path microseconds each (ADR 0031).
 */
export function remembered<T>(max: number, compute: (key: string) => T): (key: string) => T {
  const answers = new LRUCache<string, { readonly value: T }>({ max });
  return (key) => {
    const known = answers.get(key);
    if (known !== undefined) return known.value;
    const value = compute(key);
    answers.set(key, { value });
    return value;
  };
}
