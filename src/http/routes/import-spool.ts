import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
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

  /** Writes the upload to a file of its own; `signal` ends it at once. The file is gone when this throws. */
  async write(upload: Readable & { truncated?: boolean }, signal: AbortSignal): Promise<SpoolFile> {
    const file = path.join(this.dir, randomUUID());
    const remove = () => fs.rmSync(file, { force: true });
    // Past the size limit busboy would go on reading the body only to throw it away: stop there. The
    // limit may have been passed already, in the very chunk that started the part: then it said so
    // before this listener was there, and the part would wait for the rest of the body.
    const tooLarge = () => upload.destroy(new LinkforgeError('body_too_large', 'The file is larger than IMPORT_MAX_BYTES allows.'));
    if (upload.truncated) tooLarge();
    else upload.once('limit', tooLarge);
    const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(upload, out, { signal });
      if (upload.truncated) throw new LinkforgeError('body_too_large', 'The file is larger than IMPORT_MAX_BYTES allows.');
    } catch (error) {
      // A write stream destroyed early still opens its file afterwards: remove it once the stream has closed.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      remove();
      throw error;
    }
    return { path: file, remove };
  }
}
