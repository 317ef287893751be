import { Readable } from 'node:stream';
import { boundedLines } from './bounded-lines.js';
import { bitlyCandidate, kuttCandidate, shlinkCandidate, yourlsCandidate, type KeyedRecord } from './foreign-formats.js';
import { ImportFormatError, type ImportCandidate, type ImportFormat } from './import-candidate.js';
import { ImportEncodingError, ImportLimitError, limitRows, type ImportLimits } from './import-limits.js';
import { kuttJsonItems } from './kutt-json.js';
import { candidateOfLinkforgeRecord, LINKFORGE_JSON_HEADER, restoreCell } from './linkforge-format.js';
import { headerKey } from './parse-fields.js';
import { utf8Checked } from './utf8-checked.js';

export interface ImportSource {
  readonly format: ImportFormat;
  /** Read as they are consumed: the file is never held whole, and reading stops at the first limit broken. */
  readonly candidates: AsyncIterable<ImportCandidate>;
}

type CsvFormat = Exclude<ImportFormat, 'linkforge-json' | 'kutt-json'>;

/** Columns each CSV format cannot do without; any one of a group will do. */
const REQUIRED: Record<CsvFormat, readonly (readonly string[])[]> = {
  'linkforge-csv': [['code'], ['url'], ['status']],
  bitly: [['link', 'customlink'], ['longurl', 'destinationurl']],
  shlink: [['shortcode'], ['longurl']],
  'kutt-csv': [['address'], ['target']],
  yourls: [['keyword'], ['url']],
};

/** Our own CSV export neutralises cells a spreadsheet would evaluate; reading it back undoes that. */
const linkforgeCsvCandidate = (row: number, record: KeyedRecord) =>
  candidateOfLinkforgeRecord(row, Object.fromEntries(Object.entries(record).map(([key, value]) => [key, value === undefined ? value : restoreCell(value)])));

const MAPPERS: Record<CsvFormat, (row: number, record: KeyedRecord) => ImportCandidate> = {
  'linkforge-csv': linkforgeCsvCandidate,
  bitly: bitlyCandidate,
  shlink: shlinkCandidate,
  'kutt-csv': kuttCandidate,
  yourls: yourlsCandidate,
};

const hasColumns = (keys: ReadonlySet<string>, format: CsvFormat) => REQUIRED[format].every((group) => group.some((key) => keys.has(key)));

/** Reads the start of a stream and gives back one that still begins with it. */
async function peek(input: AsyncIterable<Buffer>): Promise<{ head: string; rest: AsyncIterable<Buffer> }> {
  const chunks = input[Symbol.asyncIterator]();
  const first = await chunks.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : Buffer.from(first.value as Buffer);
  async function* replay() {
    yield head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value as Buffer;
  }
  return { head: head.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').trimStart(), rest: replay() };
}

function isLinkforgeJsonHeader(firstLine: string): boolean {
  try {
    const header = JSON.parse(firstLine) as { format?: unknown };
    return header.format === LINKFORGE_JSON_HEADER.format;
  } catch {
    return false;
  }
}

/**
 * Finds the file's format (or checks the forced one) and answers its rows as candidates. Throws
 * ImportFormatError when the file is none of the known formats, ImportEncodingError when it is not
 * UTF-8, and ImportLimitError (while its rows are read) at the first limit it breaks.
 */
export async function readImport(input: AsyncIterable<Buffer | string>, limits: ImportLimits, forced?: ImportFormat): Promise<ImportSource> {
  const { head, rest } = await peek(utf8Checked(input));
  if (head === '') throw new ImportFormatError('The file is empty.');
  const json = forced === 'linkforge-json' || forced === 'kutt-json' ? forced
    : forced === undefined && head.startsWith('{') && isLinkforgeJsonHeader(head.split('\n', 1)[0]!) ? 'linkforge-json'
      : forced === undefined && (head.startsWith('[') || head.startsWith('{')) ? 'kutt-json'
        : undefined;
  if (json === 'linkforge-json') return { format: json, candidates: limitRows(linkforgeJsonLines(rest, limits), limits.maxRows) };
  if (json === 'kutt-json') return { format: json, candidates: limitRows(kuttDocument(rest, limits), limits.maxRows) };
  const source = await csvSource(Readable.from(rest), limits, forced as CsvFormat | undefined);
  return { format: source.format, candidates: limitRows(source.candidates, limits.maxRows) };
}

function checkFieldCount(count: number, where: string, limits: ImportLimits): void {
  if (count > limits.maxFields) throw new ImportLimitError(`${where} has more than ${limits.maxFields} fields (IMPORT_MAX_FIELDS).`);
}

async function csvSource(input: Readable, limits: ImportLimits, forced: CsvFormat | undefined): Promise<ImportSource> {
  // Loaded with the first CSV import: the parser is code an instance that imports nothing never runs (ADR 0020).
  const { parse } = await import('csv-parse');
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: limits.maxRowBytes });
  // pipe() passes data on, not errors: a source that fails (a byte that is not UTF-8) fails the parser, where the reader sees it.
  input.once('error', (error) => parser.destroy(error));
  input.pipe(parser);
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  // Given up early (a format error, a failed write), both streams end here rather than fail later with no one listening.
  const close = () => {
    parser.destroy();
    input.destroy();
  };
  let header: string[];
  let format: CsvFormat;
  try {
    header = await csvHeader(records, limits);
    format = csvFormatOf(header, forced);
  } catch (error) {
    close();
    throw error;
  }
  const map = MAPPERS[format];
  async function* candidates(): AsyncGenerator<ImportCandidate> {
    let row = 0;
    try {
      for (let next = await nextRecord(row); !next.done; next = await nextRecord(row)) {
        checkFieldCount(next.value.length, `Data row ${row + 1}`, limits);
        const record: Record<string, string> = {};
        header.forEach((key, i) => { record[key] = next.value[i] ?? ''; });
        yield map(++row, record);
      }
    } finally {
      close();
    }
  }
  // Broken CSV (an unclosed quote) stops the import where it is; over HTTP the file is read whole
  // before anything is written, so nothing of it goes in.
  async function nextRecord(row: number) {
    try {
      return await records.next();
    } catch (error) {
      throw csvError(error as Error, `The CSV cannot be read after data row ${row}`);
    }
  }
  return { format, candidates: candidates() };
}

async function csvHeader(records: AsyncIterator<string[]>, limits: ImportLimits): Promise<string[]> {
  let first: IteratorResult<string[]>;
  try {
    first = await records.next();
  } catch (error) {
    throw csvError(error as Error, 'The file is not CSV');
  }
  if (first.done) throw new ImportFormatError('The file has no header row.');
  checkFieldCount(first.value.length, 'The header row', limits);
  return first.value.map(headerKey);
}

function csvFormatOf(header: readonly string[], forced: CsvFormat | undefined): CsvFormat {
  const keys = new Set(header);
  const format = forced ?? (Object.keys(REQUIRED) as CsvFormat[]).find((candidate) => hasColumns(keys, candidate));
  if (format === undefined) {
    throw new ImportFormatError(`Unknown format: the header "${header.join(',')}" is not that of a Linkforge, Bitly, Shlink, Kutt or YOURLS export.`);
  }
  if (!hasColumns(keys, format)) {
    throw new ImportFormatError(`The file is not a ${format} export: it lacks the column(s) ${REQUIRED[format].filter((g) => !g.some((k) => keys.has(k))).map((g) => g.join(' or ')).join(', ')}.`);
  }
  return format;
}

async function* linkforgeJsonLines(input: AsyncIterable<Buffer>, limits: ImportLimits): AsyncGenerator<ImportCandidate> {
  let row = 0;
  let sawHeader = false;
  for await (const line of boundedLines(input, limits.maxRowBytes)) {
    const text = sawHeader ? line : line.replace(/^\uFEFF/, '');
    if (text.trim() === '') continue;
    if (!sawHeader) {
      sawHeader = true;
      continue;
    }
    row += 1;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      yield { row, code: '', url: '', fields: {}, problem: 'The line is not JSON.' };
      continue;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      yield { row, code: '', url: '', fields: {}, problem: 'The line is not a JSON object.' };
      continue;
    }
    checkFieldCount(Object.keys(record).length, `Line ${row + 1}`, limits);
    yield candidateOfLinkforgeRecord(row, record as Record<string, unknown>);
  }
}

/** Kutt answers one JSON document (`{"data":[…]}` or a bare list): read one link at a time. */
async function* kuttDocument(input: AsyncIterable<Buffer>, limits: ImportLimits): AsyncGenerator<ImportCandidate> {
  let row = 0;
  for await (const item of kuttJsonItems(input, limits)) {
    row += 1;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      yield { row, code: '', url: '', fields: {}, problem: 'The link is not a JSON object.' };
      continue;
    }
    const entries = Object.entries(item);
    checkFieldCount(entries.length, `Link ${row}`, limits);
    const record: Record<string, string | undefined> = {};
    for (const [key, value] of entries) {
      record[headerKey(key)] = value === null || value === undefined ? undefined : String(value);
    }
    yield kuttCandidate(row, record);
  }
}

/** csv-parse's own limit on a record's size is ours (IMPORT_MAX_ROW_BYTES); anything else is broken CSV. */
function csvError(error: Error, context: string): Error {
  if (error instanceof ImportEncodingError || error instanceof ImportLimitError || error instanceof ImportFormatError) return error;
  if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') return new ImportLimitError(`${context}: a row is longer than IMPORT_MAX_ROW_BYTES allows.`);
  return new ImportFormatError(`${context}: ${error.message}`);
}
