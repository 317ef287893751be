import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { LinkforgeError } from '../core/errors.js';
import { HashSemaphore } from './hash-semaphore.js';

export const MAX_CONCURRENT_HASHES = 2;
export const MAX_QUEUED_HASHES = 8;

/** The hashing function itself (bcrypt's `hash` and `compare`): the port a test double stands in for. */
export interface PasswordHashing {
  hash(password: string, cost: number): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
}

export interface PasswordHasherOptions {
  readonly maxActive?: number;
  readonly maxQueued?: number;
  /** bcrypt unless given. */
  readonly hashing?: PasswordHashing;
}

/** bcrypt through a small semaphore: at most two hashes at once, a bounded queue, 503 beyond it. */
export class PasswordHasher {
  private readonly semaphore: HashSemaphore;
  private readonly hashing: PasswordHashing;
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly cost: number, options: PasswordHasherOptions = {}) {
    this.semaphore = new HashSemaphore(options.maxActive ?? MAX_CONCURRENT_HASHES, options.maxQueued ?? MAX_QUEUED_HASHES);
    this.hashing = options.hashing ?? bcrypt;
  }

  hash(password: string): Promise<string> {
    return this.limited(() => this.hashing.hash(password, this.cost));
  }

  /**
   * Compares against the stored hash, or, for an unknown account, against a dummy hash of the same
   * cost, so both cases spend one bcrypt comparison and answer in the same time.
   */
  async verify(password: string, storedHash: string | undefined): Promise<boolean> {
    const hash = storedHash ?? await this.dummy();
    const matches = await this.limited(() => this.hashing.compare(password, hash));
    return matches && storedHash !== undefined;
  }

  /** Makes the dummy hash up front, so the first unknown-email login is not slower than the rest. */
  async prepare(): Promise<void> {
    await this.dummy();
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.hashing.hash(randomBytes(32).toString('base64url'), this.cost);
    return this.dummyHash;
  }

  private async limited<T>(task: () => Promise<T>): Promise<T> {
    const result = await this.semaphore.run(task);
    if (!result) throw new LinkforgeError('server_busy');
    return result.value;
  }
}
