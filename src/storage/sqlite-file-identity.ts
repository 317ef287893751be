import fs from 'node:fs';

/** The error a write or a readiness check gets once the open database file is not the one on disk. */
export const DATABASE_FILE_GONE = 'LINKFORGE_DATABASE_FILE_GONE';

function inodeOf(file: string): string | undefined {
  try {
    const stat = fs.statSync(file);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Notices when the SQLite file (or its WAL) that a connection has open was deleted or replaced on
 * disk. SQLite keeps writing to the unlinked inode without an error, and everything written after
 * that is gone at the next start: a write must not be acknowledged then.
 * Costs two stat calls.
 */
export class SqliteFileIdentity {
  private readonly database: string | undefined;
  private wal: string | undefined;

  constructor(private readonly file: string) {
    this.database = inodeOf(file);
    this.wal = inodeOf(`${file}-wal`);
  }

  /** An error describing what changed on disk, or undefined while the files are the ones open. */
  problem(): Error | undefined {
    const database = inodeOf(this.file);
    // The WAL appears with the first write and lives as long as a connection is open.
    const wal = inodeOf(`${this.file}-wal`);
    if (this.wal === undefined) this.wal = wal;
    if (database === this.database && (wal === this.wal || this.wal === undefined)) return undefined;
    const what = database === undefined ? 'was deleted' : database !== this.database ? 'was replaced' : 'lost its write-ahead log';
    return Object.assign(new Error(`The database file ${this.file} ${what} while the server had it open: `
      + 'nothing written now would survive a restart, so writes are refused. Restore the file and restart.'), {
      name: 'DatabaseFileGoneError', code: DATABASE_FILE_GONE,
    });
  }
}
