import v8 from 'node:v8';
import vm from 'node:vm';

/** Above this resident size V8's old generation is held close to what is live; below the second, it grows as V8 likes. */
const TIGHT_ABOVE_BYTES = 160 * 1024 * 1024;
const LOOSE_BELOW_BYTES = 140 * 1024 * 1024;
/** V8 grows the old generation to (1 + N/100) × what was live after a full collection; 0 is V8's own, dynamic choice. */
const TIGHT_GROWING_PERCENT = 20;
const CHECK_EVERY_MS = 1_000;

export interface HeapGovernor {
  /** Whether the old generation is held tight right now. */
  readonly tight: boolean;
  stop(): void;
}

/**
 * Keeps the process under its memory budget without paying for it when there is room (ADR 0020,
 * "Growth held tight only near the budget"). V8's own heuristics let the old generation grow to
 * several times what is live when collecting is cheap: fast for cache hits, but under misses at
 * full speed the evicted cache entries pile up to over 300 MiB. A fixed small growth keeps that
 * under 200 MiB and costs every cache hit a few microseconds of extra full collections. So the
 * growth is set while the process runs, once a second from its resident size: tight above 160 MiB,
 * V8's own below 140 MiB. `rss` is a cheap system call; the flag is read by V8 at each collection.
 */
export function startHeapGovernor(rss: () => number = () => process.memoryUsage.rss(), collect: () => void = fullCollection()): HeapGovernor {
  let tight = false;
  const check = () => {
    const bytes = rss();
    if (!tight && bytes > TIGHT_ABOVE_BYTES) tight = true;
    else if (tight && bytes < LOOSE_BELOW_BYTES) tight = false;
    else return;
    v8.setFlagsFromString(`--heap-growing-percent=${tight ? TIGHT_GROWING_PERCENT : 0}`);
    // The limit V8 set after the last full collection, when growth was loose, stands until the next
    // one: collecting now puts the tight limit in place before the heap grows up to the loose one.
    if (tight) collect();
  };
  check();
  const timer = setInterval(check, CHECK_EVERY_MS).unref();
  return {
    get tight() { return tight; },
    stop: () => clearInterval(timer),
  };
}

/**
 * A full collection of this isolate, through V8's `gc` function: the flag set at run time applies
 * to contexts made after it, so a fresh context has `gc` and the main script's global stays
 * without it.
 */
function fullCollection(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => gc();
}
