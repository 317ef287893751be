/** What an empty database tells the operator to do first. */
export const NO_USERS_YET = 'The database holds no user yet: create one with `linkforge user create EMAIL` (it gets a personal workspace).';

/**
 * Prints what a `list` command found: JSON (creation times as ISO dates) with `--json`, else one
 * tab-separated line a row, or what to do first when there is nothing yet.
 */
export function printListing<T extends { createdAt: number }>(rows: readonly T[], json: boolean | undefined, line: (row: T) => string): void {
  if (json) console.log(JSON.stringify(rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt).toISOString() })), null, 2));
  else if (rows.length === 0) console.log(NO_USERS_YET);
  else for (const row of rows) console.log(line(row));
}
