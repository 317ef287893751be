import type { ToWriter } from './sqlite-writer-protocol.js';

export type Job = Extract<ToWriter, { type: 'write' | 'task' | 'begin' }>;

/** A group ends after this many jobs or this long, so one busy stream cannot delay its own replies forever. */
export const GROUP_MAX_JOBS = 1000;
export const GROUP_MAX_MS = 50;

/** What the group that asks for its next job has run so far. */
export interface GroupProgress {
  readonly started: number;
  readonly jobs: number;
  readonly backgroundJobs: number;
}

/**
 * The writer thread's two queues (ADR 0023). A group takes the foreground jobs first, then
 * background jobs while it is open. A group that ends with background jobs passed over is followed
 * by one that runs a background job even when foreground jobs filled it: a client's write waits
 * for at most one background job (a flush, a cleanup batch, an import batch) besides its own
 * group, and background work still moves under a steady stream of clients.
 *
 * A job fails as busy only when SQLite's write lock is held by another connection: from when it
 * was sent, or from when the writer began waiting for the lock if that was later, for the write
 * timeout. Time spent behind other jobs on a slow host is never held against it.
 */
export class WriterQueue {
  private readonly foreground: Job[] = [];
  private readonly background: Job[] = [];
  /** Whether the last group ended with background jobs waiting and none run: the next group runs one. */
  private backgroundPassedOver = false;
  /** When the writer's current run of failed BEGIN IMMEDIATE attempts began; undefined while it holds the lock. */
  private waitingForLockSince: number | undefined;

  constructor(private readonly writeTimeoutMs: number) {}

  get length(): number {
    return this.foreground.length + this.background.length;
  }

  push(job: Job): void {
    (job.priority === 'background' ? this.background : this.foreground).push(job);
  }

  /** The next job of the group, or undefined when the group should commit now. */
  next(group: GroupProgress): Job | undefined {
    const open = group.jobs < GROUP_MAX_JOBS && Date.now() - group.started < GROUP_MAX_MS;
    if (open && this.foreground.length > 0) return this.foreground.shift();
    if (this.background.length > 0 && (open || (this.backgroundPassedOver && group.backgroundJobs === 0))) {
      this.backgroundPassedOver = false;
      return this.background.shift();
    }
    this.backgroundPassedOver = this.background.length > 0 && group.backgroundJobs === 0;
    return undefined;
  }

  /** Called before each BEGIN IMMEDIATE: how long it may wait for a lock held elsewhere. */
  lockAttempt(): number {
    const now = Date.now();
    this.waitingForLockSince ??= now;
    return Math.max(0, this.earliestGiveUp() - now);
  }

  /** The writer holds the lock: later waits count afresh. */
  lockTaken(): void {
    this.waitingForLockSince = undefined;
  }

  /** The lock is held elsewhere: removes and answers the jobs that waited for it the whole timeout. */
  takeGivenUp(): Job[] {
    const now = Date.now();
    return this.remove((job) => this.giveUpAt(job) <= now);
  }

  /** Removes and answers every job (the database cannot be written at all). */
  takeAll(): Job[] {
    this.waitingForLockSince = undefined;
    return this.remove(() => true);
  }

  private giveUpAt(job: Job): number {
    return Math.max(job.sentAt, this.waitingForLockSince ?? job.sentAt) + this.writeTimeoutMs;
  }

  private earliestGiveUp(): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const job of this.foreground) earliest = Math.min(earliest, this.giveUpAt(job));
    for (const job of this.background) earliest = Math.min(earliest, this.giveUpAt(job));
    return earliest;
  }

  private remove(matches: (job: Job) => boolean): Job[] {
    const removed: Job[] = [];
    for (const queue of [this.foreground, this.background]) {
      for (let i = queue.length - 1; i >= 0; i--) {
        if (matches(queue[i]!)) removed.unshift(...queue.splice(i, 1));
      }
    }
    return removed;
  }
}
