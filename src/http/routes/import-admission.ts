import { LinkforgeError } from '../../core/errors.js';

/**
 * How many imports run at once: at most `maxPerUser` for one user (another answers 429) and
 * `maxRunning` on this instance (another answers 503). Counted per process: in the scaled mode
 * each instance bounds its own.
 */
export class ImportAdmission {
  private running = 0;
  private readonly perUser = new Map<number, number>();

  constructor(private readonly maxRunning: number, private readonly maxPerUser: number) {}

  /** Takes a slot, or throws; the answer gives it back, exactly once. */
  admit(userId: number): () => void {
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.maxPerUser) throw new LinkforgeError('import_already_running');
    if (this.running >= this.maxRunning) throw new LinkforgeError('import_capacity_reached');
    this.running += 1;
    this.perUser.set(userId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left === 0) this.perUser.delete(userId);
      else this.perUser.set(userId, left);
    };
  }
}
