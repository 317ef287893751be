// Preloaded into a benchmarked child (node --import): when it exits, writes its peak resident set
// size (bytes) and CPU time (user + system, microseconds) as JSON to the file BENCH_USAGE_FILE names.
import fs from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    fs.writeFileSync(file, JSON.stringify({ maxRssBytes: usage.maxRSS * 1024, cpuMicros: usage.userCPUTime + usage.systemCPUTime }));
  });
}
