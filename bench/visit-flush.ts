/**
 * What the visit pipeline costs in CPU per visit, without HTTP (ADR 0016). Not part of the test
 * suite. bench/redirect.ts measures the same cost under load, but on a machine shared with other
 * work its figures move by more than the difference. This script measures the CPU of the pipeline
 * alone, split between the main thread and the others (the writer thread).
 *
 *   npx tsx bench/visit-flush.ts                  (this tree)
 *   npx tsx bench/visit-flush.ts /path/to/other   (this tree and another, in alternating rounds)
 *
 * Each round builds a fresh real composition (`createDeps`) in a child process, on a SQLite file
 * seeded with ANALYTICS_BENCH_LINKS (100,000) links. It then records visits of an ANALYTICS_BENCH_HOT
 * (1,000) link hot set, picked at random, at
 * ANALYTICS_BENCH_RATE per second (20,000) for ANALYTICS_BENCH_SECONDS (10), through
 * `analytics.buffer.record`, as the redirect responder does, with one browser's User-Agent, a
 * Referer and its address (ANALYTICS_BENCH_ADDRESS, 198.51.100.7; `none` records none, as a
 * privacy signal does). The flusher runs as in production (every second, or at 1,000 events). The last flush
 * is awaited. The round prints the process's CPU per visit (all threads, read from
 * /proc/self/task) and the main thread's share, and checks that every visit was counted. Rounds
 * alternate between the trees (ABBA …); ANALYTICS_BENCH_ROUNDS (2) per tree.
 *
 * ANALYTICS_BENCH_DATABASE=postgres runs the same on a PostgreSQL database of each round's own on
 * 127.0.0.1:5432 (dropped at its end). There the flush runs on the main thread. The PostgreSQL
 * server's own CPU is another process and is not counted.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { envInt, loadAverage } from './support/env.js';
import { median } from './support/run-facts.js';

const RATE = envInt('ANALYTICS_BENCH_RATE', 20_000, 200);
/** The visitor's address, as a redirect records it under ANALYTICS_PRIVACY=standard (a unique visitor and a country lookup); `none`: recorded without one. */
const ADDRESS = process.env.ANALYTICS_BENCH_ADDRESS === 'none' ? undefined : process.env.ANALYTICS_BENCH_ADDRESS ?? '198.51.100.7';
const SECONDS = envInt('ANALYTICS_BENCH_SECONDS', 10, 1);
/** Links seeded, and how many of them the visits go to in turn (100,000 of 100,000: nearly every visit of a flush is of another link). */
const LINKS = envInt('ANALYTICS_BENCH_LINKS', 100_000, 1);
const HOT = envInt('ANALYTICS_BENCH_HOT', 1_000, 1);
const ROUNDS = envInt('ANALYTICS_BENCH_ROUNDS', 2, 1);
const POSTGRES = process.env.ANALYTICS_BENCH_DATABASE === 'postgres';
const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Round { readonly total: number; readonly main: number; readonly counted: number; readonly visits: number }

/** One round in this process: the tree at `root` records and flushes; prints one JSON line. */
async function round(root: string): Promise<void> {
  const { loadConfig } = await import(path.join(root, 'src/config.ts'));
  const { createDeps } = await import(path.join(root, 'src/deps.ts'));
  const seed = await import(path.join(root, 'bench/support/seed-links.ts'));
  const { HUMAN_AGENTS } = await import(path.join(root, 'test/fixtures/user-agents.ts'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-bench-analytics-'));
  const postgres = POSTGRES ? await (await import(path.join(root, 'test/support/postgres.ts'))).createTestDatabase('linkforge_bench') : undefined;
  try {
    const config = loadConfig({
      NODE_ENV: 'production', DATA_DIR: dir, BASE_URL: 'http://localhost:8080', LOG_LEVEL: 'warn',
      HEALTHCHECK_ENABLED: 'false', CLEANUP_ENABLED: 'false', ANALYTICS_ENABLED: 'true',
      ...(postgres ? { DATABASE_URL: postgres.url, JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0123' } : {}),
    });
    let state = 1;
    const random = () => (state = (state * 48_271) % 2_147_483_647) / 2_147_483_647;
    const links = seed.makeLinks(LINKS, 7, random, () => null);
    if (postgres) {
      await (await createDeps(config, {})).close(); // runs the migrations
      await seed.seedPostgres(postgres.url, (await import(path.join(root, 'src/core/link.ts'))).DEFAULT_DOMAIN, links);
    } else {
      seed.seedDatabase(config.database.path, await seed.prepareDatabase(config), links);
    }
    const deps = await createDeps(config, {});
    deps.analytics.flusher.start();
    const ids = (await deps.database.db.selectFrom('links').select('id').execute()).map((row: { id: number }) => Number(row.id));
    const hot = Array.from({ length: HOT }, () => ids[Math.floor(random() * ids.length)]!);
    const record = deps.analytics.buffer.record;
    const userAgent = HUMAN_AGENTS.firefoxLinux;
    const visits = RATE * SECONDS;
    const perTick = Math.ceil(RATE / 200);
    const mainBefore = mainThreadMicros();
    const cpuBefore = process.cpuUsage();
    let sent = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        for (let i = 0; i < perTick && sent < visits; i++) record(hot[sent++ % hot.length]!, 0.05, userAgent, 'https://news.example/post', ADDRESS);
        if (sent >= visits) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    await deps.analytics.flusher.flushNow();
    const cpu = process.cpuUsage(cpuBefore);
    const main = mainThreadMicros() - mainBefore;
    const row = await deps.database.db.selectFrom('global_stats').select('total_redirects').executeTakeFirstOrThrow();
    await deps.close();
    const result: Round = { total: (cpu.user + cpu.system) / visits, main: main / visits, counted: Number(row.total_redirects), visits };
    console.log(JSON.stringify(result));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await postgres?.drop();
  }
}

/** CPU time of the main thread alone (Linux: clock ticks of /proc/self/task/<pid>/stat). */
function mainThreadMicros(): number {
  const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function runRound(root: string): Round {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--round', root], { cwd: root, encoding: 'utf8' });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`round in ${root} failed:\n${child.stderr}`);
  return JSON.parse(line) as Round;
}

async function main(): Promise<void> {
  const trees = [HERE, ...process.argv.slice(2).map((tree) => path.resolve(tree))];
  console.log(`analytics flush bench on ${POSTGRES ? 'PostgreSQL' : 'SQLite'}: ${RATE}/s to ${HOT} of ${LINKS} links for ${SECONDS} s per round, ${ROUNDS} rounds per tree, node ${process.version}, ${os.cpus().length} CPUs, load average ${loadAverage()}`);
  const results = new Map<string, Round[]>(trees.map((tree) => [tree, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? trees : [...trees].reverse();
    for (const tree of order) {
      const result = runRound(tree);
      results.get(tree)!.push(result);
      const lost = result.visits - result.counted;
      console.log(`  round ${r + 1} ${tree}: ${result.total.toFixed(2)} µs/visit (main thread ${result.main.toFixed(2)}, other threads ${(result.total - result.main).toFixed(2)})${lost ? ` · ${lost} NOT COUNTED` : ''}`);
    }
  }
  for (const [tree, rounds] of results) {
    const total = median(rounds.map((r) => r.total));
    const main = median(rounds.map((r) => r.main));
    console.log(`${tree}: median ${total.toFixed(2)} µs CPU per visit, main thread ${main.toFixed(2)}`);
  }
  console.log(`load average now ${loadAverage()} (other work on this machine skews the figures)`);
}

if (process.argv[2] === '--round') await round(process.argv[3]!);
else await main();
