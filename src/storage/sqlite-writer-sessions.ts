import type SQLite from 'better-sqlite3';
import type { StatementResult, ToWriter, WriteStatement } from './sqlite-writer-protocol.js';

type SessionMessage = Extract<ToWriter, { type: 'execute' | 'commit' | 'rollback' }>;
type Begin = Extract<ToWriter, { type: 'begin' }>;

/** What a session needs of the writer thread (sqlite-writer-worker.ts). */
export interface SessionHost {
  readonly db: SQLite.Database;
  readonly writeTimeoutMs: number;
  run(statement: WriteStatement): StatementResult;
  done(id: number, result?: StatementResult): void;
  fail(id: number, error: unknown): void;
}

/**
 * The writer thread's sessions (interactive transactions): each runs inside a savepoint of the
 * group, so its rollback undoes only itself. Messages for a session arrive while the group waits
 * for them; a session that sends nothing for the write timeout is rolled back and abandoned.
 */
export class WriterSessions {
  /** Sessions rolled back because their owner went quiet; what still arrives for them is refused. */
  private readonly abandoned = new Set<number>();
  private readonly inbox: SessionMessage[] = [];
  private wake: (() => void) | undefined;

  constructor(private readonly host: SessionHost) {}

  abandonedError(): Error {
    return Object.assign(new Error(`the transaction sent nothing for ${this.host.writeTimeoutMs} ms and was rolled back`), { code: 'SQLITE_BUSY_TIMEOUT' });
  }

  /** A message for a session: queued for the group that runs it, or refused when the session was abandoned. */
  receive(message: SessionMessage): void {
    if (this.abandoned.has(message.session)) {
      if (message.type === 'execute') this.host.fail(message.id, this.abandonedError());
      else {
        this.abandoned.delete(message.session);
        if (message.type === 'rollback') this.host.done(message.id);
        else this.host.fail(message.id, this.abandonedError());
      }
      return;
    }
    this.inbox.push(message);
    this.wake?.();
  }

  /** Runs one session to its end; answers the error that ended the whole transaction, if one did. */
  async run(job: Begin, waitingForCommit: number[]): Promise<unknown> {
    const { db } = this.host;
    const savepoint = `session_${job.id}`;
    db.exec(`SAVEPOINT ${savepoint}`);
    this.host.done(job.id);
    let fatal: unknown;
    for (;;) {
      const message = await this.next(job.id);
      if (message === undefined) {
        if (db.inTransaction) db.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        this.abandoned.add(job.id);
        return fatal;
      }
      if (message.type === 'execute') {
        fatal = this.execute(message, fatal);
      } else if (message.type === 'commit') {
        if (fatal !== undefined) {
          this.host.fail(message.id, fatal);
          return fatal;
        }
        db.exec(`RELEASE ${savepoint}`);
        waitingForCommit.push(message.id);
        return undefined;
      } else {
        if (db.inTransaction) db.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        this.host.done(message.id);
        return fatal;
      }
    }
  }

  /** Runs a session's statement, never outside its transaction; answers the error that ended it, if any. */
  private execute(message: Extract<SessionMessage, { type: 'execute' }>, fatal: unknown): unknown {
    if (fatal !== undefined) {
      this.host.fail(message.id, fatal);
      return fatal;
    }
    try {
      this.host.done(message.id, this.host.run(message.statement));
      return undefined;
    } catch (error) {
      this.host.fail(message.id, error);
      return this.host.db.inTransaction ? undefined : error;
    }
  }

  /**
   * The session's next message, or undefined when it sent none for the write timeout: a session
   * that waits for something queued behind itself (or a stuck caller) must not hold every write.
   */
  private async next(session: number): Promise<SessionMessage | undefined> {
    const deadline = Date.now() + this.host.writeTimeoutMs;
    for (;;) {
      const index = this.inbox.findIndex((message) => message.session === session);
      if (index >= 0) return this.inbox.splice(index, 1)[0]!;
      const wait = deadline - Date.now();
      if (wait <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wake = () => { clearTimeout(timer); resolve(); };
      });
      this.wake = undefined;
    }
  }
}
