/** A running mean over `count` values. */
export interface RunningMean {
  readonly count: number;
  readonly mean: number;
}

/** Welford's update with one value: μ ← μ + (x − μ)/(count + 1). */
export function addToMean(running: RunningMean, value: number): RunningMean {
  const count = running.count + 1;
  return { count, mean: running.mean + (value - running.mean) / count };
}

/**
 * Merges a batch of `n` values summing to `sum` at once: μ ← μ + (Σx − n·μ)/(count + n), which is
 * what `n` one-by-one updates give. The flusher's SQL (storage/visits/*-visit-statements.ts) is this formula.
 */
export function mergeIntoMean(running: RunningMean, n: number, sum: number): RunningMean {
  if (n === 0) return running;
  const count = running.count + n;
  return { count, mean: running.mean + (sum - n * running.mean) / count };
}
