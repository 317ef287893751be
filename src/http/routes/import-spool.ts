import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { LinkforgeError } from '../../core/errors.js';

export interface SpoolFile {
  readonly path: string;
  remove(): void;
}

/**
 * Where uploads wait while they are imported: one directory under DATA_DIR, emptied when the
 * server starts (a process killed mid-import leaves its file there), each file removed as soon as
 * its request ends, however it ends.
 */
export class ImportSpool {
  constructor(readonly dir: string) {}

  reset(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /**
   * Writes the upload to a file of its own. A client that sends nothing for `idleTimeoutMs`
   * is answered 408; `signal` (shutdown) ends the upload at once. The file is gone when this throws.
   */
  async write(upload: Readable & { truncated?: boolean }, options: { idleTimeoutMs: number; signal: AbortSignal }): Promise<SpoolFile> {
    const file = path.join(this.dir, randomUUID());
    const remove = () => fs.rmSync(file, { force: true });
    // Past the size limit busboy would go on reading the body only to throw it away: stop there.
    upload.once('limit', () => upload.destroy(new LinkforgeError('body_too_large', 'The file is larger than IMPORT_MAX_BYTES allows.')));
    try {
      await pipeline(upload, idleWatch(options.idleTimeoutMs), fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }), { signal: options.signal });
      if (upload.truncated) throw new LinkforgeError('body_too_large', 'The file is larger than IMPORT_MAX_BYTES allows.');
    } catch (error) {
      remove();
      throw error;
    }
    return { path: file, remove };
  }
}

/** Passes chunks through, and fails the upload when none arrives for `timeoutMs`. */
function idleWatch(timeoutMs: number): Transform {
  let timer: NodeJS.Timeout | undefined;
  const watch = new Transform({
    transform(chunk, _encoding, done) {
      timer?.refresh();
      done(null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
    destroy(error, done) {
      clearTimeout(timer);
      done(error);
    },
  });
  timer = setTimeout(() => watch.destroy(new LinkforgeError('upload_timeout', `The upload sent nothing for ${timeoutMs} ms.`)), timeoutMs);
  return watch;
}
