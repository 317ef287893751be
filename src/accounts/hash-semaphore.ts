/**
 * Limits how many bcrypt operations run at once, with a bounded wait queue. bcrypt runs on libuv's
 * small thread pool, which file system and DNS work share: an unbounded flood of logins would
 * starve them.
 */
export class HashSemaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly maxActive: number, private readonly maxQueued: number) {}

  get activeCount(): number {
    return this.active;
  }

  /** Runs `task` when a slot frees up; returns undefined at once when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.active >= this.maxActive) {
      if (this.waiting.length >= this.maxQueued) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return { value: await task() };
    } finally {
      const next = this.waiting.shift();
      if (next) next(); // the slot passes straight to the next waiter: `active` stays the same
      else this.active--;
    }
  }
}
