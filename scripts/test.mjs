// Runs every *.test.ts under test/ with node's own test runner (TypeScript through tsx), then the
// HTTP and reaper suites (test/http, test/jobs) a second time on PostgreSQL, so that every API
// behaviour is proven on both databases. Node 20's --test does not expand globs itself, so the files are listed here.
//   npm test                      everything, then test/http on PostgreSQL
//   npm test -- redirect          only files whose path contains "redirect" (both passes)
//   LINKFORGE_TEST_DATABASE=postgres npm test -- test/http    one pass, on PostgreSQL
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from './build-if-stale.mjs';
import { ensureUiBuilt } from './build-ui.mjs';
import { dropStaleTestDatabases } from './drop-stale-test-databases.mjs';
import { printFileDurations } from './file-durations.mjs';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

// No test file can stall the run: --test-timeout, given to the runner, bounds each file's process.
// A file that hangs inside a test, or whose tests are done but whose process does not exit (a failed
// test left a server or a connection open), fails by name after ten minutes, with what it reported,
// and the other files go on. Without it the run waits for ever and holds back the reports of the
// files after it. (Not --test-force-exit: on Node 20 it can end a file before its later describe
// blocks have run, and their tests then go missing without a failure.)
const FILE_TIMEOUT_MS = 10 * 60 * 1000;

// Beside the spec reporter, each pass writes every file's duration to a file of its own, printed
// at the end of the run, the slowest first.
const passes = [];

function run(files, env, label) {
  const durations = path.join(os.tmpdir(), `linkforge-test-durations-${process.pid}-${label}.jsonl`);
  passes.push({ label, file: durations });
  const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/file-durations-reporter.mjs', `--test-reporter-destination=${durations}`];
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', `--test-timeout=${FILE_TIMEOUT_MS}`, ...reporters, ...files], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

async function finish(status) {
  // Every test process of this run has ended: a database still named after one was left by a file
  // that crashed or was stopped at its timeout before its teardown ran.
  try {
    const dropped = await dropStaleTestDatabases();
    if (dropped > 0) console.log(`# dropped ${dropped} test databases that files of this run left behind`);
  } catch {
    // Unreachable PostgreSQL: the suites that needed it have said so already.
  }
  printFileDurations(passes, performance.now() - startedAt);
  for (const { file } of passes) rmSync(file, { force: true });
  process.exit(status);
}

const startedAt = performance.now();
const filters = process.argv.slice(2);
const files = testFiles('test').filter((file) => filters.length === 0 || filters.some((f) => file.includes(f))).sort();
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}
try {
  const dropped = await dropStaleTestDatabases();
  if (dropped > 0) console.log(`# dropped ${dropped} test databases left by earlier runs`);
} catch (error) {
  console.log(`# could not look for stale test databases (${error.message}); the PostgreSQL suites will say more`);
}
// The server serves the built web UI, and test/browser drives it: build it first when it is missing or stale.
await ensureUiBuilt();
// The suites start hundreds of server and CLI processes: from a build compiled once here, each starts
// in a third of the time tsx takes to load the sources (test/support/node-entry.ts).
buildIfStale(process.cwd(), 'dist/src/main.js');
process.env.LINKFORGE_TEST_BUILD = path.resolve('dist');
if (process.env.LINKFORGE_TEST_DATABASE) await finish(run(files, {}, process.env.LINKFORGE_TEST_DATABASE));

const first = run(files, { LINKFORGE_TEST_DATABASE: 'sqlite' }, 'sqlite');
// The reaper's suites too: its batches, lock and cache marks are proven on PostgreSQL end to end;
// and the CLI's, whose every command runs against a SQLite file and a PostgreSQL database.
const onBothDatabases = [path.join('test', 'http'), path.join('test', 'jobs'), path.join('test', 'cli')];
const httpFiles = files.filter((file) => onBothDatabases.some((dir) => file.startsWith(dir + path.sep)));
const second = httpFiles.length === 0 ? 0 : (console.log('\n# The HTTP and reaper suites again, on PostgreSQL\n'), run(httpFiles, { LINKFORGE_TEST_DATABASE: 'postgres' }, 'postgres'));
await finish(first !== 0 ? first : second);
