import { randomFillSync } from 'node:crypto';

/**
 * Cryptographically random bytes drawn from the operating system in blocks: one randomFillSync
 * of a few kilobytes serves hundreds of codes and secrets, where a call per draw (a few bytes)
 * cost more than the draw itself. Every byte is handed out once.
 */
export class RandomPool {
  private readonly pool: Buffer;
  private offset: number;
  private fills = 0;

  constructor(size = 4096) {
    this.pool = Buffer.allocUnsafeSlow(size);
    this.offset = size;
  }

  /** Times the pool was filled from the operating system. */
  get refills(): number {
    return this.fills;
  }

  /** `n` fresh bytes, a view of the pool: read them before the pool wraps around (its size later). */
  take(n: number): Buffer {
    if (n > this.pool.length) return randomFillSync(Buffer.allocUnsafe(n));
    if (this.offset + n > this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
      this.fills++;
    }
    const bytes = this.pool.subarray(this.offset, this.offset + n);
    this.offset += n;
    return bytes;
  }
}

/** The process's pool (one a thread): short codes and secrets draw from it. */
export const sharedRandomPool = new RandomPool();

export const pooledRandomBytes = (n: number): Buffer => sharedRandomPool.take(n);
