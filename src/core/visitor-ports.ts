/**
 * Unique visitors without keeping who they are (docs/adr/0028-unique-visitors.md): a visitor id is
 * a keyed hash of (address, User-Agent, link) under a salt of the UTC day, shared by every
 * instance through the database and deleted once its day is over.
 */

/** A visitor id is the first 6 bytes of the HMAC: an integer a double holds exactly, a bigint column stores as is. */
export const VISITOR_ID_BYTES = 6;

/** A day salt is 32 random bytes, stored as 64 hexadecimal digits. */
export const SALT_HEX_LENGTH = 64;

/** One visitor seen on one link's UTC day, first in the hour `hourStart` (within the batch). */
export interface VisitorSighting {
  readonly linkId: number;
  readonly dayStart: number;
  readonly hourStart: number;
  readonly visitorId: number;
}

/** The salts of the visitor ids, one per UTC day, in the database every instance shares. */
export interface VisitorSaltStore {
  /** The salt of `dayStart`, created with `candidate` unless an instance made one first; answers the one stored. */
  saltOfDay(dayStart: number, candidate: string): Promise<string>;
  /** The stored salt of `dayStart`, or undefined once it is deleted (or was never made). */
  findSalt(dayStart: number): Promise<string | undefined>;
  /** Deletes every salt of a day before `dayStart`, and the visitor ids seen before `idsBefore`. */
  forgetBefore(dayStart: number, idsBefore: number): Promise<void>;
}
