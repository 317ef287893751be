import fs from 'node:fs';

/**
 * Where pino writes its lines: a file descriptor (stdout by default), written synchronously one
 * line at a time. A line that cannot be written (disk full, pipe closed, a non-blocking pipe that
 * is full) is dropped and counted; nothing is retried and nothing is buffered, so a broken log
 * can neither stop the server nor hold up its exit. pino's own destination (sonic-boom) keeps a
 * failed chunk and retries it, and its flush at exit loops forever on ENOSPC.
 */
export class LogDestination {
  private dropped = 0;
  /** The last line was cut short: the next one starts on a new line so that it still parses. */
  private torn = false;

  constructor(private readonly fd: number = 1) {}

  /** Lines dropped since start (a later /metrics exports this). */
  get droppedLines(): number {
    return this.dropped;
  }

  write(line: string): void {
    const text = this.torn ? `\n${line}` : line;
    let written = 0;
    try {
      written = fs.writeSync(this.fd, text);
      if (written !== text.length && written < Buffer.byteLength(text)) this.writeRest(Buffer.from(text), written);
      this.torn = false;
    } catch {
      this.dropped++;
      if (written > 0) this.torn = true;
    }
  }

  /** A short write (the disk filled mid-line) is continued until it completes or fails. */
  private writeRest(bytes: Buffer, offset: number): void {
    for (let written = offset; written < bytes.length;) {
      const n = fs.writeSync(this.fd, bytes, written);
      if (n <= 0) throw new Error('no progress');
      written += n;
    }
  }
}
