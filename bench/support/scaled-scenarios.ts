/**
 * The redirect bench's scaled profile (issue 8 item 10): the app on PostgreSQL + Redis, against
 * the same bare node:http server and the same links as the embedded scenarios, in the same run.
 *   (g) cache hits, one instance: the in-process tier, as (a) is on SQLite;
 *   (h) misses served by Redis: in-process tier off (CACHE_MAX_ENTRIES=0), every link put into
 *       Redis first by one walk over all codes; skipped, with a note, when no key appears there;
 *   (i) misses served by PostgreSQL: in-process tier off and no REDIS_URL;
 *   (j) two instances (the (g) settings), one load generator each with half the connections,
 *       against the bare server under two load generators the same way; their sum.
 */
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { SUPPORT } from './children.js';
import { compare, cpu, fmtInt, fmtMs, primeHot, rps, verdict, vsBare, walkCodes, type BenchPart, type Measurement, type MeasureSettings, type RatioLine, type Side } from './measure.js';
import { BENCH_REDIS_URL, benchPostgres, benchRedisPrefix, cachedLinkCount } from './scaled-services.js';
import type { SeededLink } from './seed-links.js';
import { startServer, type Server } from './servers.js';

export const SCALED_SCENARIOS = ['scaled-hits', 'redis-misses', 'pg-misses', 'two-instances'] as const;
export type ScaledScenario = (typeof SCALED_SCENARIOS)[number];

const TARGETS = { scaledVsEmbeddedHits: 0.9, redisMissVsHit: 0.5 };
const JWT_SECRET = 'linkforge-bench-jwt-secret-not-for-production';

export interface ScaledContext {
  readonly scenarios: ReadonlySet<string>;
  readonly settings: MeasureSettings;
  /** The embedded app's settings (appSettings()); the scaled ones add DATABASE_URL, REDIS_URL and the rest. */
  readonly appSettings: Readonly<Record<string, string>>;
  readonly appEnv: (extra: Record<string, string>) => NodeJS.ProcessEnv;
  readonly srcDir: string;
  readonly execArgv: string[];
  readonly bare: Server;
  readonly domain: string;
  readonly links: readonly SeededLink[];
  readonly hotCodes: readonly string[];
  readonly hotFile: string;
  readonly allFile: string;
  /** Fails unless every server gives the bare server's answers. */
  readonly checkAnswers: (servers: readonly Server[]) => Promise<void>;
  /** [bare, app] of the embedded cache hits (a), when they ran. */
  readonly embeddedHits?: readonly [Measurement, Measurement];
}

const ratio = (n: number) => n.toFixed(2);

export async function scaledScenarios(ctx: ScaledContext): Promise<BenchPart> {
  const has = (s: ScaledScenario) => ctx.scenarios.has(s);
  const started = Date.now();
  console.error(`scaled: a PostgreSQL database of its own, seeded with ${fmtInt(ctx.links.length)} links; a Redis key prefix of its own`);
  const databaseUrl = await benchPostgres({ ...ctx.appSettings, JWT_SECRET }, ctx.domain, ctx.links);
  const prefix = benchRedisPrefix();
  console.error(`  ready in ${Date.now() - started} ms (prefix ${prefix})`);
  const config = loadConfig({ ...ctx.appSettings, DATABASE_URL: databaseUrl, JWT_SECRET });
  const withRedis = { REDIS_URL: BENCH_REDIS_URL, REDIS_KEY_PREFIX: prefix };
  const start = (name: string, extra: Record<string, string>) => startServer(name, path.join(SUPPORT, 'app-server.mjs'), [ctx.srcDir],
    { env: ctx.appEnv({ DATABASE_URL: databaseUrl, JWT_SECRET, ...extra }), execArgv: ctx.execArgv });
  const [one, two, redisMiss, pgMiss] = await Promise.all([
    has('scaled-hits') || has('two-instances') ? start('scaled', withRedis) : undefined,
    has('two-instances') ? start('scaled B', withRedis) : undefined,
    has('redis-misses') ? start('scaled (no LRU)', { ...withRedis, CACHE_MAX_ENTRIES: '0' }) : undefined,
    has('pg-misses') ? start('scaled (no LRU, no Redis)', { CACHE_MAX_ENTRIES: '0' }) : undefined,
  ]);
  await ctx.checkAnswers([one, two, redisMiss, pgMiss].filter((s) => s !== undefined));

  const rows: Measurement[] = [];
  const ratioLines: RatioLine[] = [];
  const notes: string[] = [
    `Scaled: PostgreSQL and Redis on 127.0.0.1, DB_POOL_MAX ${config.dbPoolMax}, CACHE_LOCAL_TTL ${config.cache.localTtlMs / 1000} s; the database and the Redis prefix are removed at the end.`,
  ];
  const measure = async (scenario: string, bare: Side, app: Side, codesFile: string) => {
    const pair = await compare(ctx.settings, scenario, bare, app, { codesFile }, 'redirect');
    rows.push(...pair);
    return pair;
  };
  const nonRedirects = (label: string, m: Measurement): RatioLine => [`non-3xx in ${label}`, String(m.unexpected), '0', verdict(m.unexpected === 0)];

  let hits: readonly [Measurement, Measurement] | undefined;
  if (one && has('scaled-hits')) {
    await primeHot(one, ctx.hotCodes);
    hits = await measure(`(g) scaled cache hits, ${fmtInt(ctx.hotCodes.length)} hot`, ctx.bare, one, ctx.hotFile);
    ratioLines.push(['scaled cache hits vs bare (g)', ratio(vsBare(hits)), '', '']);
    if (ctx.embeddedHits) {
      const share = vsBare(hits) / vsBare(ctx.embeddedHits);
      ratioLines.push(['scaled vs embedded cache hits, each vs bare (g/a)', ratio(share), `≥ ${TARGETS.scaledVsEmbeddedHits} (within 10 %)`, verdict(share >= TARGETS.scaledVsEmbeddedHits)],
        ['  same from app CPU µs/response', ratio(cpu(ctx.embeddedHits[1]) / cpu(hits[1])), '(hardly moved by other load)', '']);
    }
    ratioLines.push(['p99 scaled cache hits (g)', `${fmtMs(hits[1].latencyMs.p99)} ms`, '', ''], nonRedirects('(g)', hits[1]));
  }

  if (redisMiss) {
    const warmStarted = Date.now();
    const walked = await walkCodes(redisMiss, ctx.allFile, ctx.settings.loadgen === 'wrk', ctx.settings.connections);
    const cached = await cachedLinkCount(prefix);
    notes.push(`Redis warm-up for (h): ${fmtInt(ctx.links.length)} codes walked once through the no-LRU instance in ${((Date.now() - warmStarted) / 1000).toFixed(1)} s (statuses ${JSON.stringify(walked)}); then ${fmtInt(cached)} link keys under the prefix.`);
    if (cached === 0) {
      ratioLines.push(['Redis misses (h)', 'Redis tier not active', `≥ ${TARGETS.redisMissVsHit} of a hit`, 'not measured']);
      notes.push('(h) not measured: no link key appeared in Redis after the warm-up, so this build does not use REDIS_URL yet; its "Redis miss" would have been a PostgreSQL miss, which (i) measures.');
    } else {
      if (cached < ctx.links.length) notes.push(`(h) is not all Redis hits: only ${fmtInt(cached)} of ${fmtInt(ctx.links.length)} links were in Redis after the warm-up; the rest read PostgreSQL.`);
      const misses = await measure(`(h) Redis misses, ${fmtInt(ctx.links.length / 1000)}k uniform`, ctx.bare, redisMiss, ctx.allFile);
      ratioLines.push(['Redis misses vs bare (h)', ratio(vsBare(misses)), '', '']);
      if (hits) {
        const share = vsBare(misses) / vsBare(hits);
        ratioLines.push(['Redis misses vs scaled cache hits, each vs bare (h/g)', ratio(share), `≥ ${TARGETS.redisMissVsHit}`, verdict(share >= TARGETS.redisMissVsHit)],
          ['  same from app CPU µs/response', ratio(cpu(hits[1]) / cpu(misses[1])), '(hardly moved by other load)', '']);
      }
      ratioLines.push(['p99 Redis misses (h)', `${fmtMs(misses[1].latencyMs.p99)} ms`, '', ''], nonRedirects('(h)', misses[1]));
    }
  }

  if (pgMiss) {
    const misses = await measure(`(i) PostgreSQL misses, ${fmtInt(ctx.links.length / 1000)}k uniform`, ctx.bare, pgMiss, ctx.allFile);
    ratioLines.push(['PostgreSQL misses vs bare (i)', ratio(vsBare(misses)), '', '']);
    if (hits) ratioLines.push(['PostgreSQL misses vs scaled cache hits, each vs bare (i/g)', ratio(vsBare(misses) / vsBare(hits)), '', '']);
    ratioLines.push(['p99 PostgreSQL misses (i)', `${fmtMs(misses[1].latencyMs.p99)} ms`, '', ''], nonRedirects('(i)', misses[1]));
  }

  if (one && two) {
    await Promise.all([primeHot(one, ctx.hotCodes), primeHot(two, ctx.hotCodes)]);
    const pair = await measure(`(j) two instances, ${fmtInt(ctx.hotCodes.length)} hot`, [ctx.bare, ctx.bare], [one, two], ctx.hotFile);
    ratioLines.push(['two instances, sum vs bare (j)', ratio(vsBare(pair)), '', '']);
    if (hits) ratioLines.push(['two instances vs one, each vs bare (j/g)', ratio(vsBare(pair) / vsBare(hits)), '', ''], ['two instances, sum of req/s vs one (j/g)', ratio(rps(pair[1]) / rps(hits[1])), '', '']);
    ratioLines.push(nonRedirects('(j)', pair[1]));
    notes.push(`(j): two wrk processes, one an instance, ${Math.round(ctx.settings.connections / 2)} connections each, at the same time; the bare row is the one bare server under two wrk processes the same way. Both instances, both load generators, PostgreSQL and Redis share this machine's CPUs.`);
  }
  return { rows, ratioLines, notes };
}
