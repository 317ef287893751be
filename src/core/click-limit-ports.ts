/**
 * The port of a link's click limit (ADR 0031): the clicks left are only ever decremented by the
 * database, one atomic statement per click, so instances sharing a database never serve more
 * people than the limit between them.
 */
export interface ClickLimitStore {
  /**
   * Takes one click of the link's limit when one is left: the clicks left after it, or undefined
   * when none was left (or the link has no limit, or is gone).
   */
  consumeClick(linkId: number): Promise<number | undefined>;
  /** The clicks left, read without taking one; undefined when the link has no limit or is gone. */
  findClicksLeft(linkId: number): Promise<number | undefined>;
}
