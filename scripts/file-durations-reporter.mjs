// A node:test reporter that writes one JSON line per test file: its path, how long its process ran
// (start-up, tests and teardown) and whether it passed. scripts/test.mjs gives it beside the spec
// reporter and prints the slowest files at the end of `npm test` (file-durations.mjs).
import path from 'node:path';

export default async function* fileDurations(source) {
  for await (const event of source) {
    // Each file runs in a process of its own, reported as one test named by the file's path.
    if (event.type !== 'test:complete' || event.data.nesting !== 0 || event.data.name !== event.data.file) continue;
    const { duration_ms: ms, passed } = event.data.details;
    yield `${JSON.stringify({ file: path.relative(process.cwd(), event.data.file), ms: Math.round(ms), passed })}\n`;
  }
}
