// How the server process is started (by `npm start`, and by the benchmarks that measure it).
// Under 200 MiB RSS with a million links (docs/adr/0020). These settings of the runtime matter:
// - MALLOC_ARENA_MAX=2: glibc gives every thread that allocates (the database writer, libuv's
//   pool) an arena of its own, and fragmentation across them cost ~50 MB at the peak;
// - --max-semi-space-size=4 (MB): V8's young generation grows to 3 × 16 MB under redirect load;
//   capped at 8, the peak dropped by ~30 MB for a few more (cheap) scavenges, at 4 by ~13 MiB more
//   (the writer thread's isolate gets the same young generation: a flag cannot differ per thread);
// - --heap-growing-percent (V8's old generation grows to (1 + N/100) × what was live after the last
//   full collection before the next one): left to V8, a heap of ~50 MB live grew to 190 MB of mostly
//   dead cache entries under misses at full speed (docs/adr/0020, "The old generation's growth").
// An operator's own values win.
const HEAP_GROWING_PERCENT = 20;

export function serverRuntime(env = process.env) {
  return {
    env: { MALLOC_ARENA_MAX: '2', ...env },
    execArgv: [
      ...(/--max-semi-space-size/.test(env.NODE_OPTIONS ?? '') ? [] : ['--max-semi-space-size=4']),
      `--heap-growing-percent=${env.LINKFORGE_HEAP_GROWING_PERCENT ?? HEAP_GROWING_PERCENT}`,
    ],
  };
}
