import type { ImportCandidate } from '../core/link-transfer-ports.js';

export type { ImportCandidate };

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
