/**
 * No stored text holds U+0000: PostgreSQL's text type cannot, and it refuses such a parameter
 * with an error (22021) where SQLite just compares; the app validates codes, URLs and e-mail
 * addresses before writing them, so the SQLite file holds none either. A lookup by a key that
 * holds one finds nothing, without asking the database.
 */
export function holdsNul(...keys: ReadonlyArray<string | undefined>): boolean {
  return keys.some((key) => key?.includes('\u0000'));
}
