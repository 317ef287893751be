import SQLite from 'better-sqlite3';
import { sameExtras } from '../core/link-options.js';
import type { RedirectTarget } from '../core/link.js';
import type { LocalLinkCache } from '../core/ports.js';
import { REDIRECT_COLUMNS, redirectTargetOf, type RedirectRow } from './link-rows.js';
import { configureConnection } from './sqlite-connection.js';

interface ChangeRow {
  readonly id: number;
  readonly domain: string;
  readonly code: string;
}

/** How often a process looks whether the file changed: what another process changed is seen within this. */
export const FOLLOW_INTERVAL_MS = 250;
/** Changes read at most per look; a process further behind drops its whole cache instead. */
const MOST_CHANGES_READ = 5_000;

const sameTarget = (a: RedirectTarget, b: RedirectTarget) => a.url === b.url && a.expiresAt === b.expiresAt
  && a.status === b.status && a.linkId === b.linkId && a.permanent === b.permanent && a.disabledReason === b.disabledReason
  && a.redirectStatus === b.redirectStatus && sameExtras(a.extras, b.extras);

/**
 * Keeps this process's cache true to a file that other processes write too (docs/architecture.md,
 * "Several processes on one file"). `PRAGMA data_version` tells, for the cost of a pragma, whether
 * any other connection committed since the last look; when so, the change log (migration 012) says
 * which links changed, and an entry the cache holds for one of them is dropped unless it still
 * says what the row says. This process's own changes come back too, and find the cache already
 * invalidated: they change nothing. A look that finds more than it reads, or rows already trimmed
 * from the log, clears the cache: a miss costs a lookup, a stale entry a wrong answer. The
 * follower has a connection of its own, so its reads are nobody else's statements.
 */
export class SqliteChangeFollower {
  private readonly db: SQLite.Database;
  private readonly dataVersion: SQLite.Statement<[], { data_version: number }>;
  private readonly changesAfter: SQLite.Statement<[number, number], ChangeRow>;
  private readonly newestChange: SQLite.Statement<[], { id: number | null }>;
  private readonly linkRow: SQLite.Statement<[string, string], RedirectRow>;
  private lastVersion: number;
  private lastId: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(file: string, private readonly cache: Pick<LocalLinkCache, 'get' | 'forget' | 'clear'>) {
    this.db = new SQLite(file, { readonly: true, fileMustExist: true });
    configureConnection(this.db, { busyTimeoutMs: 0, readOnly: true });
    this.dataVersion = this.db.prepare('pragma data_version');
    this.changesAfter = this.db.prepare('select id, domain, code from link_changes where id > ? order by id limit ?');
    this.newestChange = this.db.prepare('select max(id) as id from link_changes');
    this.linkRow = this.db.prepare(`select ${REDIRECT_COLUMNS.join(', ')} from links where domain = ? and code = ?`);
    this.lastVersion = this.dataVersion.get()!.data_version;
    this.lastId = this.newestChange.get()?.id ?? 0;
  }

  start(intervalMs = FOLLOW_INTERVAL_MS): void {
    this.timer ??= setInterval(() => this.catchUp(), intervalMs).unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.db.close();
  }

  /** Brings the cache up to every change committed since the last look; the interval calls it, tests may too. */
  catchUp(): void {
    try {
      const version = this.dataVersion.get()!.data_version;
      if (version === this.lastVersion) return;
      this.lastVersion = version;
      this.readChanges();
    } catch {
      // The file is gone or unreadable: the app's own reads report that; the next look tries again.
    }
  }

  private readChanges(): void {
    const rows = this.changesAfter.all(this.lastId, MOST_CHANGES_READ + 1);
    if (rows.length === 0) return;
    if (rows.length > MOST_CHANGES_READ || rows[0]!.id > this.lastId + 1) {
      this.cache.clear();
      this.lastId = this.newestChange.get()?.id ?? 0;
      return;
    }
    for (const row of rows) this.recheck(row.domain, row.code);
    this.lastId = rows[rows.length - 1]!.id;
  }

  /** Drops the cached entry unless it still says what the row says (a purged link's tombstone stays). */
  private recheck(domain: string, code: string): void {
    const cached = this.cache.get(domain, code);
    if (cached === undefined) return;
    const row = redirectTargetOf(this.linkRow.get(domain, code));
    const stillTrue = row === undefined
      ? cached === null || cached.status !== 'ACTIVE'
      : cached !== null && sameTarget(cached, row);
    if (!stillTrue) this.cache.forget(domain, code);
  }
}
