// How the server process is started (by `npm start`, and by the benchmarks that measure it).
// The target is under 200 MB RSS with a million links (docs/specification.md, ADR 0020). Two settings of the runtime matter:
// - MALLOC_ARENA_MAX=2: glibc gives every thread that allocates (the database writer, libuv's
//   pool) an arena of its own, and fragmentation across them cost ~50 MB at the peak;
// - --max-semi-space-size=8 (MB): V8's young generation grows to 3 × 16 MB under redirect load;
//   capped, the peak drops by ~30 MB for a few more (cheap) scavenges.
// An operator's own values win.
export function serverRuntime(env = process.env) {
  return {
    env: { MALLOC_ARENA_MAX: '2', ...env },
    execArgv: /--max-semi-space-size/.test(env.NODE_OPTIONS ?? '') ? [] : ['--max-semi-space-size=8'],
  };
}
