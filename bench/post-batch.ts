/**
 * What posting a batch of visits to a worker thread costs the posting thread: the flusher posts
 * each part of a flush to the SQLite writer thread (ADR 0016, "Batches on shared memory"). A batch
 * of POST_BENCH_VISITS (50,000) visits with 30 distinct facts (the shape of a second of cache hits
 * on 1,000 hot links) is posted POST_BENCH_POSTS (200) times with its columns on ordinary memory,
 * then on shared memory (core/shared-columns.ts), in POST_BENCH_ROUNDS (2) alternating rounds; the
 * figure is the time `postMessage` takes on this thread, median and p99.
 *
 *   npx tsx bench/post-batch.ts
 */
import { Worker } from 'node:worker_threads';
import { sharedFloat64, sharedUint32 } from '../src/core/shared-columns.js';
import type { VisitBatch, VisitFacts } from '../src/core/visit-ports.js';
import { envInt, loadAverage } from './support/env.js';
import { measuredCommit } from './support/run-facts.js';

const VISITS = envInt('POST_BENCH_VISITS', 50_000, 1);
const POSTS = envInt('POST_BENCH_POSTS', 200, 10);
const ROUNDS = envInt('POST_BENCH_ROUNDS', 2, 1);

const facts: VisitFacts[] = Array.from({ length: 30 }, (_, i) => ({
  visitorClass: 'human', referrerHost: `news${i}.example`, browser: 'Firefox', os: 'Linux', device: 'desktop', country: 'DE', region: null, city: null,
}));

function batch(shared: boolean): VisitBatch {
  const float = (size: number) => (shared ? sharedFloat64(size) : new Float64Array(size));
  const factsIndex = shared ? sharedUint32(VISITS) : new Uint32Array(VISITS);
  return { size: VISITS, linkIds: float(VISITS), visitedAt: float(VISITS), latencyMs: float(VISITS), factsIndex, facts, visitorIds: float(VISITS) };
}

async function postTimes(worker: Worker, shared: boolean): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < POSTS; i++) {
    const input = batch(shared);
    const start = performance.now();
    worker.postMessage({ type: 'task', id: i, task: 'recordVisits', input });
    times.push(performance.now() - start);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return times.sort((a, b) => a - b);
}

const at = (sorted: readonly number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;

const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => {});', { eval: true });
console.log(`post-batch bench at ${measuredCommit()}: ${VISITS} visits a batch, ${POSTS} posts a round, node ${process.version}, load average ${loadAverage()}`);
for (let round = 1; round <= ROUNDS; round++) {
  for (const shared of round % 2 === 1 ? [false, true] : [true, false]) {
    const times = await postTimes(worker, shared);
    console.log(`  round ${round}, ${shared ? 'shared memory  ' : 'ordinary memory'}: median ${at(times, 0.5).toFixed(3)} ms, p99 ${at(times, 0.99).toFixed(3)} ms`);
  }
}
await worker.terminate();
