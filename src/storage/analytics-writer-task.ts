import type SQLite from 'better-sqlite3';
import type { AnalyticsBatch } from '../core/analytics-ports.js';
import { rollUp } from '../core/analytics-rollups.js';

/**
 * The analytics flush on the embedded database, run by the writer thread itself (ADR 0016): the
 * batch arrives as one message and is rolled up and written with prepared statements there, so
 * the redirect thread neither groups visits nor binds a parameter. What it writes is what
 * analytics-store.ts writes on PostgreSQL, and the same contract suite holds both
 * (test/contract/analytics-store.test.ts): global row first with every visit; per-link counters
 * with the mean merged as core/welford.ts `mergeIntoMean` does; visits and roll-ups only for links
 * whose row still exists. The caller runs it inside a transaction (a savepoint of the writer's
 * group), so the batch is written whole or not at all.
 */
const SQL = {
  global: `update global_stats set
      total_redirects = total_redirects + @count,
      avg_latency_ms = avg_latency_ms + (cast(@latencySum as real) - @count * avg_latency_ms) / (total_redirects + @count),
      human_redirects = human_redirects + @human, bot_redirects = bot_redirects + @bot, preview_redirects = preview_redirects + @preview
    where id = 1`,
  link: `update links set
      redirect_count = redirect_count + @count,
      avg_redirect_ms = avg_redirect_ms + (cast(@latencySum as real) - @count * avg_redirect_ms) / (redirect_count + @count),
      human_count = human_count + @human, bot_count = bot_count + @bot, preview_count = preview_count + @preview
    where id = @id`,
  visit: `insert into visits (link_id, visited_at, referrer_host, browser, os, device, visitor_class, latency_ms)
    values (?, ?, ?, ?, ?, ?, ?, ?)`,
  hourly: `insert into link_clicks_hourly (link_id, hour_start, visitor_class, clicks) values (?, ?, ?, ?)
    on conflict (link_id, hour_start, visitor_class) do update set clicks = clicks + excluded.clicks`,
  daily: `insert into link_breakdown_daily (link_id, day_start, dimension, value, visitor_class, clicks) values (?, ?, ?, ?, ?, ?)
    on conflict (link_id, day_start, dimension, value, visitor_class) do update set clicks = clicks + excluded.clicks`,
};

type Statements = { readonly [K in keyof typeof SQL]: SQLite.Statement };
const prepared = new WeakMap<SQLite.Database, Statements>();

function statementsOf(db: SQLite.Database): Statements {
  let statements = prepared.get(db);
  if (statements === undefined) {
    statements = {
      global: db.prepare(SQL.global), link: db.prepare(SQL.link), visit: db.prepare(SQL.visit),
      hourly: db.prepare(SQL.hourly), daily: db.prepare(SQL.daily),
    };
    prepared.set(db, statements);
  }
  return statements;
}

export function recordAnalyticsOnWriter(db: SQLite.Database, batch: AnalyticsBatch): void {
  if (batch.size === 0) return;
  const s = statementsOf(db);
  const { total, perLink, hourly, daily } = rollUp(batch);
  s.global.run(total);
  const existing = new Set<number>();
  for (const [id, t] of perLink) {
    if (s.link.run({ ...t, id }).changes > 0) existing.add(id);
  }
  for (let i = 0; i < batch.size; i++) {
    const linkId = batch.linkIds[i]!;
    if (!existing.has(linkId)) continue;
    const f = batch.facts[batch.factsIndex[i]!]!;
    s.visit.run(linkId, batch.visitedAt[i]!, f.referrerHost, f.browser, f.os, f.device, f.visitorClass, batch.latencyMs[i]!);
  }
  for (const row of hourly) {
    if (existing.has(row.linkId)) s.hourly.run(row.linkId, row.hourStart, row.visitorClass, row.clicks);
  }
  for (const row of daily) {
    if (existing.has(row.linkId)) s.daily.run(row.linkId, row.dayStart, row.dimension, row.value, row.visitorClass, row.clicks);
  }
}
