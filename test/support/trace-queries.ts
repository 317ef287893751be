import { CompiledQuery, type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs } from 'kysely';
import type { OpenDatabase } from '../../src/storage/database.js';
import type { Database } from '../../src/storage/schema.js';

/** Keeps every query a Kysely instance runs, as the nodes its executor compiles, and how many rows each returned. */
class QueryRecorder implements KyselyPlugin {
  readonly queries: Array<PluginTransformQueryArgs & { rows?: number }> = [];

  transformQuery(args: PluginTransformQueryArgs) {
    this.queries.push({ ...args });
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs) {
    const query = this.queries.find((candidate) => candidate.queryId === args.queryId);
    if (query) query.rows = args.result.rows.length;
    return args.result;
  }
}

export interface TracedQuery {
  readonly sql: string;
  /** Rows the database sent back. */
  readonly rows: number;
  /** SQLite: EXPLAIN QUERY PLAN's details, one a line; PostgreSQL: EXPLAIN's text. */
  readonly plan: string;
}

/**
 * The queries `run` makes through the database it is given, with their plans. PostgreSQL is told
 * to avoid sequential scans, as on a table large enough to matter: the test tables are tiny.
 */
export async function traceQueries(database: OpenDatabase, run: (db: Kysely<Database>) => Promise<unknown>): Promise<TracedQuery[]> {
  const recorder = new QueryRecorder();
  await run(database.db.withPlugin(recorder));
  const executor = database.db.getExecutor();
  const compiled = recorder.queries.map(({ node, queryId, rows }) => ({ ...executor.compileQuery(node, queryId), rows: rows ?? 0 }));
  const explain = async (db: Kysely<Database>, query: (typeof compiled)[number]): Promise<TracedQuery> => {
    const prefix = database.dialect === 'sqlite' ? 'explain query plan' : 'explain';
    const { rows } = await db.executeQuery<Record<string, string>>(CompiledQuery.raw(`${prefix} ${query.sql}`, [...query.parameters]));
    const plan = rows.map((row) => row.detail ?? row['QUERY PLAN']).join('\n');
    return { sql: query.sql, rows: query.rows, plan };
  };
  if (database.dialect === 'sqlite') return Promise.all(compiled.map((query) => explain(database.db, query)));
  return database.db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
    const traced: TracedQuery[] = [];
    for (const query of compiled) traced.push(await explain(trx, query));
    return traced;
  });
}
