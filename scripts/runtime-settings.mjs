// How the server process is started (by `npm start`, and by the benchmarks that measure it).
// Under 200 MiB RSS with a million links (docs/adr/0020). These settings of the runtime matter:
// - MALLOC_ARENA_MAX=2: glibc gives every thread that allocates (the database writer, libuv's
//   pool) an arena of its own, and fragmentation across them cost ~50 MB at the peak;
// - --max-semi-space-size=4 (MB): V8's young generation grows to 3 × 16 MB under redirect load;
//   capped at 8, the peak dropped by ~30 MB for a few more (cheap) scavenges, at 4 by ~13 MiB more
//   (the writer thread's isolate gets the same young generation: a flag cannot differ per thread);
// V8's old-generation growth is set while the server runs, from its resident size
// (src/heap-governor.ts, docs/adr/0020): a fixed small growth here cost every cache hit.
// An operator's own values win.

export function serverRuntime(env = process.env) {
  return {
    env: { MALLOC_ARENA_MAX: '2', ...env },
    execArgv: [
      ...(/--max-semi-space-size/.test(env.NODE_OPTIONS ?? '') ? [] : ['--max-semi-space-size=4']),
    ],
  };
}
