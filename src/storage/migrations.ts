import { Migrator, sql, type Kysely, type Migration, type ColumnDefinitionBuilder, type CreateTableBuilder } from 'kysely';
import { canonicalize } from '../core/canonical-url.js';
import { DEFAULT_DOMAIN } from '../core/link.js';
import type { Dialect } from './database.js';
import { breakdownOrder } from './breakdown-order-migration.js';

/**
 * Numbered migrations, kept in code so they ship inside the build. Each is written once for both
 * databases; the only dialect difference is how an auto-incrementing key is spelled.
 */
type Db = Kysely<any>; // migrations describe schemas that the row types do not know yet

function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

const time = (c: ColumnDefinitionBuilder) => c.notNull();

function linkColumns<T extends string>(table: CreateTableBuilder<T, never>, withForeignKeys: boolean) {
  const reference = (target: string) => (c: ColumnDefinitionBuilder) =>
    withForeignKeys ? c.references(target).onDelete('set null') : c;
  return table
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('original_url', 'text', (c) => c.notNull())
    .addColumn('normalized_url', 'text', (c) => c.notNull())
    .addColumn('link_type', 'text', (c) => c.notNull().check(sql`link_type in ('TEMPORARY', 'PERMANENT')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('ACTIVE', 'EXPIRED', 'DELETED')`))
    .addColumn('workspace_id', 'bigint', reference('workspaces.id'))
    .addColumn('owner_id', 'bigint', reference('users.id'))
    .addColumn('claim_token_hash', 'text')
    .addColumn('created_at', 'bigint', time)
    .addColumn('updated_at', 'bigint', time)
    .addColumn('expires_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .addColumn('redirect_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('avg_redirect_ms', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('destination_status', 'integer')
    .addColumn('last_checked_at', 'bigint');
}

function initialSchema(dialect: Dialect): Migration {
  return {
    async up(db: Db) {
      await withId(db.schema.createTable('users'), dialect)
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('user'))
        .addColumn('created_at', 'bigint', time)
        .execute();
      await db.schema.createIndex('users_email_key').on('users').column('email').unique().execute();

      await withId(db.schema.createTable('workspaces'), dialect)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('is_personal', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', time)
        .execute();

      await db.schema.createTable('workspace_members')
        .addColumn('workspace_id', 'bigint', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', time)
        .addPrimaryKeyConstraint('workspace_members_pkey', ['workspace_id', 'user_id'])
        .execute();
      await db.schema.createIndex('workspace_members_user_idx').on('workspace_members').column('user_id').execute();

      await withId(db.schema.createTable('api_keys'), dialect)
        .addColumn('workspace_id', 'bigint', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('created_by', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', time)
        .addColumn('last_used_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_secret_hash_key').on('api_keys').column('secret_hash').unique().execute();

      await linkColumns(withId(db.schema.createTable('links'), dialect), true).execute();
      // Codes resolve to one link per domain; a workspace holds one link per canonical URL.
      // Anonymous links have a null workspace_id, which both databases treat as distinct.
      await db.schema.createIndex('links_domain_code_key').on('links').columns(['domain', 'code']).unique().execute();
      await db.schema.createIndex('links_workspace_url_key').on('links').columns(['workspace_id', 'normalized_url']).unique().execute();
      await db.schema.createIndex('links_expires_at_idx').on('links').column('expires_at').execute();
      await db.schema.createIndex('links_deleted_at_idx').on('links').column('deleted_at').execute();
      await db.schema.createIndex('links_owner_idx').on('links').columns(['owner_id', 'id']).execute();

      await linkColumns(db.schema.createTable('links_archive').addColumn('id', 'bigint', (c) => c.primaryKey()), false)
        .addColumn('archived_at', 'bigint', time)
        .execute();

      await db.schema.createTable('shedlock')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('lock_until', 'bigint', time)
        .addColumn('locked_at', 'bigint', time)
        .addColumn('locked_by', 'text', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('cleanup_runs'), dialect)
        .addColumn('instance', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', time)
        .addColumn('finished_at', 'bigint')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('marked_expired', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('purged', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('archived', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('batches', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_batch_size', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('duration_ms', 'bigint')
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('cleanup_runs_started_at_idx').on('cleanup_runs').column('started_at').execute();

      await withId(db.schema.createTable('visits'), dialect)
        .addColumn('link_id', 'bigint', (c) => c.notNull())
        .addColumn('visited_at', 'bigint', time)
        .addColumn('referrer_host', 'text')
        .addColumn('browser', 'text')
        .addColumn('os', 'text')
        .addColumn('device', 'text')
        .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('visits_link_time_idx').on('visits').columns(['link_id', 'visited_at']).execute();

      await db.schema.createTable('global_stats')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('total_redirects', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('avg_latency_ms', 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.insertInto('global_stats').values({ id: 1, total_redirects: 0, avg_latency_ms: 0 }).execute();
    },
  };
}

/** The reaper's scans select by status first: without these it walks a week of retained rows. */
const reaperIndexes: Migration = {
  async up(db: Db) {
    await db.schema.createIndex('links_status_expires_at_idx').on('links').columns(['status', 'expires_at']).execute();
    await db.schema.createIndex('links_status_deleted_at_idx').on('links').columns(['status', 'deleted_at']).execute();
  },
};

/**
 * Links on the default short domain were stored under the host of BASE_URL, so a new PORT or
 * BASE_URL orphaned all of them; they move to the fixed DEFAULT_DOMAIN key (SPEC section 1).
 * There are no custom domains yet, so every row is on the default domain. A code stored under two
 * old hosts (PORT changed before this version) can have one row under the key: the newest takes
 * it, the older stays under its old host, as unreachable as it already was.
 */
const defaultDomainKey: Migration = {
  async up(db: Db) {
    await db.updateTable('links as l').set({ domain: DEFAULT_DOMAIN })
      .where('l.domain', '<>', DEFAULT_DOMAIN)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('links as newer').select('newer.id')
        .whereRef('newer.code', '=', 'l.code').whereRef('newer.id', '>', 'l.id'))))
      .execute();
    await db.updateTable('links_archive').set({ domain: DEFAULT_DOMAIN }).execute();
  },
};

/**
 * The canonical form now keeps a client-side route fragment (`#/settings`, `#!/page`; SPEC section 2,
 * step 5), which it used to drop. Rows created before kept the fragment in original_url only, so
 * re-creating such a URL would miss them and mint a second link. Their normalized_url is recomputed
 * with the current rules; code is never touched, so every short link already handed out keeps
 * working and keeps its code. Running it twice changes nothing.
 */
const clientSideRouteFragments: Migration = {
  async up(db: Db) {
    const recompute = async (trx: Db) => {
      // LIKE only narrows the scan; canonicalize decides (a `#/` later in a fragment is no route).
      const rows: Array<{ id: number; workspace_id: number | null; original_url: string; normalized_url: string }> = await trx
        .selectFrom('links')
        .select(['id', 'workspace_id', 'original_url', 'normalized_url'])
        .where((eb) => eb.or([eb('original_url', 'like', '%#/%'), eb('original_url', 'like', '%#!%')]))
        .orderBy('id')
        .execute();
      for (const row of rows) {
        const normalizedUrl = canonicalFormOf(row.original_url);
        if (normalizedUrl === undefined || normalizedUrl === row.normalized_url) continue;
        // The old form of these rows is the new form minus its fragment, and a workspace holds one
        // row per old form, so two rows can only meet here if one was written by other rules (an
        // import, an older canonicalization, a hand edit). Merging them would drop a code somebody
        // may have shared, and the unique index forbids two equal forms: the row that already holds
        // the new form keeps it, and this one keeps its old normalized_url (it still redirects; only
        // re-creating its URL answers the other row). Anonymous rows (null workspace) never collide.
        if (row.workspace_id !== null) {
          const holder = await trx.selectFrom('links').select('id')
            .where('workspace_id', '=', row.workspace_id).where('normalized_url', '=', normalizedUrl)
            .executeTakeFirst();
          if (holder !== undefined) continue;
        }
        await trx.updateTable('links').set({ normalized_url: normalizedUrl }).where('id', '=', row.id).execute();
      }
    };
    // Kysely runs PostgreSQL migrations inside a transaction already, SQLite ones outside any.
    await (db.isTransaction ? recompute(db) : db.transaction().execute(recompute));
  },
};

function canonicalFormOf(originalUrl: string): string | undefined {
  try {
    return canonicalize(new URL(originalUrl));
  } catch {
    return undefined; // not written by this app's validation: left as it is
  }
}

/**
 * Every index is written on every insert: a create wrote eight B-trees. Kept are those a query
 * uses: unique (domain, code) for redirects and claims; (status, expires_at) and
 * (status, deleted_at) for the reaper's mark and purge; unique (workspace_id, normalized_url),
 * now partial, since anonymous links (no workspace) are never deduplicated (SPEC section 3) and
 * their long URLs made it the largest write of an anonymous create. Dropped: expires_at and
 * deleted_at alone (the status pairs serve every query that used them) and (owner_id, id), which
 * no query reads (add it back with a feature that deletes users). The partial index still serves
 * `workspace_id = ?`, which implies `workspace_id is not null`.
 */
const leanLinkIndexes: Migration = {
  async up(db: Db) {
    for (const name of ['links_expires_at_idx', 'links_deleted_at_idx', 'links_owner_idx', 'links_workspace_url_key']) {
      await db.schema.dropIndex(name).execute();
    }
    await db.schema.createIndex('links_workspace_url_key').on('links').columns(['workspace_id', 'normalized_url']).unique()
      .where(sql.ref('workspace_id'), 'is not', null).execute();
  },
};

/**
 * Analytics (SPEC section 8, issue 9): per-link counters by visitor class beside redirect_count,
 * the class on each visit row, roll-ups the read side sums instead of counting raw visits (clicks
 * per hour; breakdowns per day), and the global split. Visits get an index on time alone for the
 * retention sweep.
 */
const analytics: Migration = {
  async up(db: Db) {
    for (const column of ['human_count', 'bot_count', 'preview_count']) {
      await db.schema.alterTable('links').addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('links_archive').addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('global_stats').addColumn(column.replace('_count', '_redirects'), 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    }
    await db.schema.alterTable('visits').addColumn('visitor_class', 'text', (c) => c.notNull().defaultTo('human')).execute();
    await db.schema.alterTable('visits').addColumn('latency_ms', 'double precision', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.createIndex('visits_visited_at_idx').on('visits').column('visited_at').execute();

    await db.schema.createTable('link_clicks_hourly')
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('hour_start', 'bigint', (c) => c.notNull())
      .addColumn('visitor_class', 'text', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('link_clicks_hourly_pkey', ['link_id', 'hour_start', 'visitor_class'])
      .execute();

    await db.schema.createTable('link_breakdown_daily')
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('day_start', 'bigint', (c) => c.notNull())
      .addColumn('dimension', 'text', (c) => c.notNull().check(sql`dimension in ('referrer', 'browser', 'os', 'device')`))
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('visitor_class', 'text', (c) => c.notNull())
      .addColumn('clicks', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('link_breakdown_daily_pkey', ['link_id', 'day_start', 'dimension', 'value', 'visitor_class'])
      .execute();
  },
};

/**
 * `cleanup_runs.visits_deleted`: the reaper's retention of raw visits (issue 9 item 4) had no column.
 * The health check picks active links whose last check is oldest first (never checked first): an
 * index in that order, so a pick reads a few index entries instead of sorting every active link.
 * SQLite puts NULLs first in ascending order already; PostgreSQL is told to. Retention deletes
 * visits by id now (reaper-store.ts, ADR 0016), so the index on visits.visited_at goes: each visit
 * row wrote it on the flush's hot loop.
 */
const cleanupVisitsAndCheckOrder = (dialect: Dialect): Migration => ({
  async up(db: Db) {
    await db.schema.alterTable('cleanup_runs').addColumn('visits_deleted', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    const order = dialect === 'postgres' ? sql`status, last_checked_at nulls first, id` : sql`status, last_checked_at, id`;
    await db.schema.createIndex('links_health_check_idx').on('links').expression(order).execute();
    await db.schema.dropIndex('visits_visited_at_idx').execute();
  },
});

/**
 * `visit_ranges` in place of the index on visits (link_id, visited_at) (ADR 0016, "Visit ranges"):
 * each flush writes its visit rows grouped by link and one range per link, so finding a link's
 * visits (purge, export) reads its ranges and then visits by id. Existing visits get a range per
 * run of consecutive ids of one link (gaps and islands: id − row number is constant along a run).
 */
const visitRanges: Migration = {
  async up(db: Db) {
    await db.schema.createTable('visit_ranges')
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('first_id', 'bigint', (c) => c.notNull())
      .addColumn('last_id', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('visit_ranges_pkey', ['link_id', 'first_id'])
      .execute();
    await db.schema.createIndex('visit_ranges_last_id_idx').on('visit_ranges').column('last_id').execute();
    await sql`insert into visit_ranges (link_id, first_id, last_id)
      select link_id, min(id), max(id) from (
        select id, link_id, id - row_number() over (partition by link_id order by id) as run from visits
      ) as numbered group by link_id, run`.execute(db);
    await db.schema.dropIndex('visits_link_time_idx').execute();
  },
};

/**
 * Each distinct set of a visit's facts (class, referrer host, browser, OS, device) once, in
 * `visit_facts`, and a visit row points at it (ADR 0016, "Narrow visit rows"): a visit row is four
 * numbers instead of four strings and a class. The writer thread's flush took 1.0 µs per visit to
 * insert the wide rows and 0.37 µs for the narrow ones, and the rows take half the disk. The
 * unique index treats an unknown value (NULL) as one value, so a set of facts is there once
 * however many of its values are unknown; an empty string, which no classifier gives, is read as
 * unknown too.
 */
const visitFacts = (dialect: Dialect): Migration => ({
  async up(db: Db) {
    const factColumns = ['referrer_host', 'browser', 'os', 'device'] as const;
    let table = withId(db.schema.createTable('visit_facts'), dialect).addColumn('visitor_class', 'text', (c) => c.notNull());
    for (const column of factColumns) table = table.addColumn(column, 'text');
    await table.execute();
    const key = sql.join([sql.ref('visitor_class'), ...factColumns.map((column) => sql`(coalesce(${sql.ref(column)}, ''))`)]);
    await db.schema.createIndex('visit_facts_key').on('visit_facts').unique().expression(key).execute();
    await sql`insert into visit_facts (visitor_class, referrer_host, browser, os, device)
      select distinct visitor_class, nullif(referrer_host, ''), nullif(browser, ''), nullif(os, ''), nullif(device, '') from visits`.execute(db);
    await db.schema.alterTable('visits').addColumn('facts_id', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update visits set facts_id = (
      select f.id from visit_facts f where f.visitor_class = visits.visitor_class
        and coalesce(f.referrer_host, '') = coalesce(visits.referrer_host, '') and coalesce(f.browser, '') = coalesce(visits.browser, '')
        and coalesce(f.os, '') = coalesce(visits.os, '') and coalesce(f.device, '') = coalesce(visits.device, ''))`.execute(db);
    for (const column of [...factColumns, 'visitor_class', 'is_bot']) await db.schema.alterTable('visits').dropColumn(column).execute();
  },
});

/**
 * Bounds on what hostile traffic can grow (ADR 0021). `visit_facts.last_used_at`, set by every
 * flush and import, lets the reaper delete a set no visit points at any more: existing sets get
 * the time of their latest visit, or 0 when none is left. Roll-up retention deletes by time, so
 * both roll-ups get an index on it (written when a row is added, not when its clicks grow).
 */
const analyticsBounds: Migration = {
  async up(db: Db) {
    await db.schema.alterTable('visit_facts').addColumn('last_used_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update visit_facts set last_used_at = latest.visited_at
      from (select facts_id, max(visited_at) as visited_at from visits group by facts_id) as latest
      where latest.facts_id = visit_facts.id`.execute(db);
    await db.schema.createIndex('visit_facts_last_used_idx').on('visit_facts').column('last_used_at').execute();
    await db.schema.createIndex('link_clicks_hourly_hour_idx').on('link_clicks_hourly').column('hour_start').execute();
    await db.schema.createIndex('link_breakdown_daily_day_idx').on('link_breakdown_daily').column('day_start').execute();
  },
};

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '001_initial_schema': initialSchema(dialect),
    '002_reaper_indexes': reaperIndexes,
    '003_default_domain_key': defaultDomainKey,
    '004_client_side_route_fragments': clientSideRouteFragments,
    '005_lean_link_indexes': leanLinkIndexes,
    '006_analytics': analytics,
    '007_cleanup_visits_and_check_order': cleanupVisitsAndCheckOrder(dialect),
    '008_visit_ranges': visitRanges,
    '009_visit_facts': visitFacts(dialect),
    '010_analytics_bounds': analyticsBounds,
    '011_breakdown_order': breakdownOrder(dialect),
  };
}

/** Applies every pending migration; Kysely's migration lock makes concurrent runs safe. */
export async function migrateToLatest(db: Db, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(dialect) } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
