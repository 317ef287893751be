import bcrypt from 'bcrypt';
import type { PasswordHashing } from '../../src/accounts/password-hasher.js';

/**
 * bcrypt at the hasher's port, counting its comparisons and how many run at once. `hold()` makes
 * comparisons wait until `release()`, so that a test can see the semaphore's bounds without
 * depending on how fast the machine hashes.
 */
export class CountingHashing implements PasswordHashing {
  comparisons = 0;
  running = 0;
  peakRunning = 0;
  /** The hash each comparison was made against, in order. */
  readonly comparedWith: string[] = [];
  private gate: Promise<void> | undefined;
  private openGate = () => {};

  hash(password: string, cost: number): Promise<string> {
    return bcrypt.hash(password, cost);
  }

  async compare(password: string, hash: string): Promise<boolean> {
    this.comparisons += 1;
    this.comparedWith.push(hash);
    this.running += 1;
    this.peakRunning = Math.max(this.peakRunning, this.running);
    try {
      await this.gate;
      return await bcrypt.compare(password, hash);
    } finally {
      this.running -= 1;
    }
  }

  hold(): void {
    this.gate = new Promise((resolve) => { this.openGate = resolve; });
  }

  release(): void {
    this.openGate();
    this.gate = undefined;
  }
}
