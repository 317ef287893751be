/**
 * Import benchmark (ADR 0019). Not part of the test suite.
 *
 *   npm run bench:import                           (= npx tsx bench/import.ts)
 *   IMPORT_BENCH_ROWS=20000 npm run bench:import   (quick)
 *   IMPORT_BENCH_BACKENDS=sqlite npm run bench:import
 *
 * Writes a Bitly-style CSV (the API export's header, IMPORT_BENCH_ROWS rows, distinct codes and
 * destinations) to a temp dir, then on each backend (a fresh SQLite file; a fresh PostgreSQL
 * database on 127.0.0.1) runs the real CLI twice, as `npx linkforge import FILE` runs it: the build
 * in dist/ (compiled first if stale) with the server's runtime settings, in a child process.
 *   first   every row is created;
 *   second  the same file again: every row must come back as existing.
 * Prints, per run, rows/s over the child's whole life (start-up and migration included), rows per
 * CPU-second of the CLI's process (user + system; the writer thread included, the PostgreSQL server
 * not: the figure a busy shared machine disturbs least), and the child's peak RSS, against the
 * targets: at least 5,000 rows/s on SQLite, peak RSS under 300 MB.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { buildIfStale } from '../scripts/build-if-stale.mjs';
import { serverRuntime } from '../scripts/runtime-settings.mjs';
import { createTestDatabase } from '../test/support/postgres.js';
import { atCleanUp, baseEnv, makeTempDir, REPO, runBench, SUPPORT, track } from './support/children.js';
import { envInt, envList } from './support/env.js';

const ROWS = envInt('IMPORT_BENCH_ROWS', 100_000, 1);
const BACKENDS = envList('IMPORT_BENCH_BACKENDS', ['sqlite', 'postgres'] as const);
const MB = 1024 * 1024;

async function writeBitlyCsv(file: string, rows: number): Promise<void> {
  const out = fs.createWriteStream(file);
  out.write('link,long_url,title,created_at,created_by,archived,tags,custom_bitlinks\n');
  for (let i = 0; i < rows; i++) {
    const created = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString().replace('.000Z', '+0000');
    const line = `https://bit.ly/b${i.toString(36)},https://example.com/articles/${i}?utm_source=bitly&utm_campaign=c${i % 97},"Article ${i}, part ${i % 7}",${created},bench,false,news,\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
}

interface RunFigures { seconds: number; maxRssBytes: number; cpuMicros: number; report: { created: number; existing: number; rejected: number } }

async function runImport(cli: string, file: string, env: NodeJS.ProcessEnv, usageFile: string): Promise<RunFigures> {
  const runtime = serverRuntime({ ...baseEnv(), ...env, BENCH_USAGE_FILE: usageFile });
  const started = process.hrtime.bigint();
  const child = track(spawn(process.execPath, [...runtime.execArgv, '--import', path.join(SUPPORT, 'report-usage.mjs'), cli, 'import', file, '--json'], {
    cwd: REPO, env: runtime.env, stdio: ['ignore', 'pipe', 'inherit'],
  }));
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  const [code] = await once(child, 'exit') as [number | null];
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`linkforge import exited ${code}: ${stdout}`);
  return { seconds, ...JSON.parse(fs.readFileSync(usageFile, 'utf8')) as { maxRssBytes: number; cpuMicros: number }, report: JSON.parse(stdout) };
}

async function backendEnv(name: string, dir: string): Promise<NodeJS.ProcessEnv> {
  const common = { DATA_DIR: path.join(dir, name), LOG_LEVEL: 'warn', BASE_URL: 'http://sho.rt', BCRYPT_COST: '4' };
  fs.mkdirSync(common.DATA_DIR);
  if (name === 'sqlite') return common;
  const database = await createTestDatabase('linkforge_bench');
  atCleanUp(() => database.drop());
  return { ...common, DATABASE_URL: database.url, JWT_SECRET: 'bench-secret-bench-secret-bench-secret-42' };
}

async function createUser(cli: string, env: NodeJS.ProcessEnv): Promise<void> {
  const runtime = serverRuntime({ ...baseEnv(), ...env });
  const child = track(spawn(process.execPath, [...runtime.execArgv, cli, 'user', 'create', 'bench@example.com'], { cwd: REPO, env: runtime.env, stdio: ['pipe', 'ignore', 'inherit'] }));
  child.stdin!.end('correct horse battery\n');
  const [code] = await once(child, 'exit') as [number | null];
  if (code !== 0) throw new Error(`linkforge user create exited ${code}`);
}

await runBench(async () => {
  const cli = buildIfStale(REPO, 'dist/src/cli/main.js');
  const dir = makeTempDir('linkforge-import-bench-');
  const file = path.join(dir, 'bitly.csv');
  await writeBitlyCsv(file, ROWS);
  console.log(`import bench: ${ROWS} rows of a Bitly-style CSV (${(fs.statSync(file).size / MB).toFixed(1)} MB), the built CLI in a child process`);
  for (const backend of BACKENDS) {
    const env = await backendEnv(backend, dir);
    await createUser(cli, env);
    for (const run of ['first', 'second'] as const) {
      const figures = await runImport(cli, file, env, path.join(dir, `${backend}-${run}.usage.json`));
      const expected = run === 'first' ? figures.report.created : figures.report.existing;
      if (expected !== ROWS || figures.report.rejected !== 0) throw new Error(`${backend} ${run}: unexpected report ${JSON.stringify(figures.report)}`);
      const rate = ROWS / figures.seconds;
      const target = backend === 'sqlite' ? ` (target ≥ 5000: ${rate >= 5000 ? 'met' : 'MISSED'})` : '';
      const cpuRate = ROWS / (figures.cpuMicros / 1e6);
      console.log(`${backend.padEnd(8)} ${run === 'first' ? 'first (all created) ' : 'second (all existing)'}  ${figures.seconds.toFixed(2)} s  ${Math.round(rate)} rows/s${target}  ${Math.round(cpuRate)} rows per CPU-second of the CLI  peak RSS ${(figures.maxRssBytes / MB).toFixed(0)} MB (target < 300: ${figures.maxRssBytes < 300 * MB ? 'met' : 'MISSED'})`);
    }
  }
});
