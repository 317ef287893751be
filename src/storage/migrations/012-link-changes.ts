import { sql, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import type { MigrationDb } from './schema-builders.js';

/** Rows the change log keeps: a process further behind than this clears its whole cache instead. */
export const LINK_CHANGES_KEPT = 100_000;

/**
 * The embedded database's change log of links (docs/architecture.md, "Several processes on one
 * file"): every process on the file, the CLI included, follows it to drop what its cache holds of
 * a link changed by another. Triggers write it, so no writer can forget to. An insert is logged
 * too: another process may remember the code as unknown. Only the columns a redirect reads count
 * as a change; health checks and the like do not log. Every thousandth row trims the log to its
 * last LINK_CHANGES_KEPT rows. PostgreSQL has no such log: instances there share Redis's
 * invalidation bus (ADR 0012).
 */
export const linkChanges = (dialect: Dialect): Migration => ({
  async up(db: MigrationDb) {
    if (dialect === 'postgres') return;
    await sql`create table link_changes (
      id integer primary key autoincrement,
      domain text not null,
      code text not null
    )`.execute(db);
    await sql`create trigger link_changes_on_insert after insert on links
      begin insert into link_changes (domain, code) values (new.domain, new.code); end`.execute(db);
    await sql`create trigger link_changes_on_update
      after update of domain, code, original_url, expires_at, status, link_type on links
      begin
        insert into link_changes (domain, code) values (old.domain, old.code);
        insert into link_changes (domain, code) select new.domain, new.code where new.domain <> old.domain or new.code <> old.code;
      end`.execute(db);
    await sql`create trigger link_changes_on_delete after delete on links
      begin insert into link_changes (domain, code) values (old.domain, old.code); end`.execute(db);
    await sql.raw(`create trigger link_changes_trim after insert on link_changes when new.id % 1000 = 0
      begin delete from link_changes where id <= new.id - ${LINK_CHANGES_KEPT}; end`).execute(db);
  },
  async down(db: MigrationDb) {
    if (dialect === 'postgres') return;
    for (const trigger of ['link_changes_trim', 'link_changes_on_delete', 'link_changes_on_update', 'link_changes_on_insert']) {
      await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    }
    await sql`drop table if exists link_changes`.execute(db);
  },
});
