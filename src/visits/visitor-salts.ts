import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/ports.js';
import { dayStartOf } from '../core/visit-rollups.js';
import { SALT_HEX_LENGTH, type VisitorSaltStore } from '../core/visitor-ports.js';

const DAY_MS = 24 * 3_600_000;

/**
 * The salt of each UTC day's visitor ids (ADR 0028). Today's is made once for the whole
 * deployment (the first instance to ask stores it, the others read it) and held in memory; the
 * first time an instance sees a new day it deletes every older salt, and the visitor ids of the
 * days before yesterday. Yesterday's salt is still used from memory for visits that were flushed
 * after midnight, never read back once deleted. A day older than that, or a salt the database
 * could not give, means no visitor id: the visit still counts, as a click.
 */
export class VisitorSalts {
  private readonly known = new Map<number, Buffer>();

  constructor(private readonly store: VisitorSaltStore, private readonly clock: Clock, private readonly onError?: (error: unknown) => void) {}

  /** The salt of the UTC day starting at `dayStart`, or undefined when that day's visits get no id. */
  async saltOf(dayStart: number): Promise<Buffer | undefined> {
    const today = dayStartOf(this.clock.now());
    const known = this.known.get(dayStart);
    if (known !== undefined && dayStart >= today - DAY_MS) return known;
    if (dayStart !== today) return undefined;
    try {
      const salt = Buffer.from(await this.store.saltOfDay(today, randomBytes(SALT_HEX_LENGTH / 2).toString('hex')), 'hex');
      for (const day of this.known.keys()) if (day < today - DAY_MS) this.known.delete(day);
      this.known.set(today, salt);
      await this.store.forgetBefore(today, today - DAY_MS);
      return salt;
    } catch (error) {
      this.onError?.(error);
      return undefined;
    }
  }
}
