import { Transform } from 'node:stream';
import cliProgress from 'cli-progress';

export interface ImportProgress {
  /** Counts the bytes that pass through it, for the bar. */
  readonly meter: Transform;
  update(rows: number): void;
  stop(): void;
}

/**
 * A progress bar on stderr, only when stderr is a terminal (a pipe or a log file gets the report
 * alone). Progress is in bytes of the file, the one total known before the rows are counted.
 */
export function importProgress(totalBytes: number): ImportProgress {
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  if (!process.stderr.isTTY) return { meter, update: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar({
    stream: process.stderr,
    format: 'Importing [{bar}] {percentage}% | {rows} rows | {eta_formatted} left',
    hideCursor: true,
  }, cliProgress.Presets.shades_classic);
  bar.start(Math.max(totalBytes, 1), 0, { rows: 0 });
  return {
    meter,
    update: (rows) => bar.update(Math.min(bytes, totalBytes), { rows }),
    stop: () => {
      bar.update(totalBytes);
      bar.stop();
    },
  };
}
