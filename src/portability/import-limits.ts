/**
 * How much of a file one import may read (IMPORT_MAX_ROWS, IMPORT_MAX_FIELDS, IMPORT_MAX_ROW_BYTES):
 * a reader never holds more than one row, and stops at the first row past a limit.
 */
export interface ImportLimits {
  readonly maxRows: number;
  readonly maxFields: number;
  readonly maxRowBytes: number;
}

/** Kutt's `{"data":[{…}]}` is three levels deep; a little room for nested values, and no more. */
export const MAX_JSON_DEPTH = 8;

/** The file breaks one of the limits: the import stops there and reads nothing more. */
export class ImportLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportLimitError';
  }
}

/** The file is not UTF-8: its bytes are never guessed or replaced (docs/adr/0008). */
export class ImportEncodingError extends Error {
  constructor(message = 'The file is not valid UTF-8; bytes are never guessed or replaced.') {
    super(message);
    this.name = 'ImportEncodingError';
  }
}

/** Answers the candidates, stopping with ImportLimitError at the first row past `maxRows`. */
export async function* limitRows<T>(rows: AsyncIterable<T>, maxRows: number): AsyncGenerator<T> {
  let count = 0;
  for await (const row of rows) {
    if (++count > maxRows) throw new ImportLimitError(`The file has more than ${maxRows} rows (IMPORT_MAX_ROWS).`);
    yield row;
  }
}
