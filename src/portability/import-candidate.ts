import type { TransferLink } from '../core/link-transfer-ports.js';

/**
 * One row of an import file as a reader understood it, before any rule of ours is applied: the
 * short code it had, its destination as written, and whatever else the format carries. `problem`
 * says why a row could not be read at all (a missing destination, a date that is not one).
 */
export interface ImportCandidate {
  /** 1-based position among the file's data rows (the header is not counted). */
  readonly row: number;
  readonly code: string;
  readonly url: string;
  readonly fields: Partial<Omit<TransferLink, 'code' | 'originalUrl'>>;
  readonly problem?: string;
}

/** Formats the readers know; `linkforge-*` are this service's own export. */
export const IMPORT_FORMATS = ['linkforge-csv', 'linkforge-json', 'bitly', 'shlink', 'kutt-csv', 'kutt-json', 'yourls'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}

/** The file is none of the formats, or not the one forced; nothing was imported. */
export class ImportFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFormatError';
  }
}
