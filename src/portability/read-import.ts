import { Readable } from 'node:stream';
import readline from 'node:readline';
import { parse } from 'csv-parse';
import { bitlyCandidate, kuttCandidate, shlinkCandidate, yourlsCandidate, type KeyedRecord } from './foreign-formats.js';
import { ImportFormatError, type ImportCandidate, type ImportFormat } from './import-candidate.js';
import { candidateOfLinkforgeRecord, LINKFORGE_JSON_HEADER } from './linkforge-format.js';
import { headerKey } from './parse-fields.js';

export interface ImportSource {
  readonly format: ImportFormat;
  /** Read as they are consumed: the file is never held whole (Kutt's single JSON document aside). */
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

const MAPPERS: Record<CsvFormat, (row: number, record: KeyedRecord) => ImportCandidate> = {
  'linkforge-csv': candidateOfLinkforgeRecord,
  bitly: bitlyCandidate,
  shlink: shlinkCandidate,
  'kutt-csv': kuttCandidate,
  yourls: yourlsCandidate,
};

const hasColumns = (keys: ReadonlySet<string>, format: CsvFormat) => REQUIRED[format].every((group) => group.some((key) => keys.has(key)));

/** Reads the start of a stream and gives back one that still begins with it. */
async function peek(input: Readable): Promise<{ head: string; rest: Readable }> {
  const chunks = input[Symbol.asyncIterator]();
  const first = await chunks.next();
  const head: Buffer = first.done ? Buffer.alloc(0) : Buffer.from(first.value as Buffer);
  async function* replay() {
    yield head;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value as Buffer;
  }
  return { head: head.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '').trimStart(), rest: Readable.from(replay(), { objectMode: false }) };
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
 * ImportFormatError when the file is none of the known formats.
 */
export async function readImport(input: Readable, forced?: ImportFormat): Promise<ImportSource> {
  const { head, rest } = await peek(input);
  if (head === '') throw new ImportFormatError('The file is empty.');
  const json = forced === 'linkforge-json' || forced === 'kutt-json' ? forced
    : forced === undefined && head.startsWith('{') && isLinkforgeJsonHeader(head.split('\n', 1)[0]!) ? 'linkforge-json'
      : forced === undefined && (head.startsWith('[') || head.startsWith('{')) ? 'kutt-json'
        : undefined;
  if (json === 'linkforge-json') return { format: json, candidates: linkforgeJsonLines(rest) };
  if (json === 'kutt-json') return { format: json, candidates: kuttDocument(rest) };
  return csvSource(rest, forced as CsvFormat | undefined);
}

async function csvSource(input: Readable, forced: CsvFormat | undefined): Promise<ImportSource> {
  const parser = input.pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true }));
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let header: string[];
  try {
    const first = await records.next();
    if (first.done) throw new ImportFormatError('The file has no header row.');
    header = first.value.map(headerKey);
  } catch (error) {
    throw error instanceof ImportFormatError ? error : new ImportFormatError(`The file is not CSV: ${(error as Error).message}`);
  }
  const keys = new Set(header);
  const format = forced ?? (Object.keys(REQUIRED) as CsvFormat[]).find((candidate) => hasColumns(keys, candidate));
  if (format === undefined) {
    throw new ImportFormatError(`Unknown format: the header "${header.join(',')}" is not that of a Linkforge, Bitly, Shlink, Kutt or YOURLS export.`);
  }
  if (!hasColumns(keys, format)) {
    throw new ImportFormatError(`The file is not a ${format} export: it lacks the column(s) ${REQUIRED[format].filter((g) => !g.some((k) => keys.has(k))).map((g) => g.join(' or ')).join(', ')}.`);
  }
  const map = MAPPERS[format];
  async function* candidates(): AsyncGenerator<ImportCandidate> {
    let row = 0;
    for (let next = await nextRecord(row); !next.done; next = await nextRecord(row)) {
      const record: Record<string, string> = {};
      header.forEach((key, i) => { record[key] = next.value[i] ?? ''; });
      yield map(++row, record);
    }
  }
  // Broken CSV (an unclosed quote) stops the import where it is: the batches before it stand, and
  // running the import again once the file is fixed creates only what is missing.
  async function nextRecord(row: number) {
    try {
      return await records.next();
    } catch (error) {
      throw new ImportFormatError(`The CSV cannot be read after data row ${row}: ${(error as Error).message}`);
    }
  }
  return { format, candidates: candidates() };
}

async function* linkforgeJsonLines(input: Readable): AsyncGenerator<ImportCandidate> {
  let row = 0;
  let sawHeader = false;
  for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
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
    yield candidateOfLinkforgeRecord(row, typeof record === 'object' && record !== null ? record as Record<string, unknown> : {});
  }
}

/** Kutt answers one JSON document (`{"data":[…]}` or a bare list): it is read whole. */
async function* kuttDocument(input: Readable): AsyncGenerator<ImportCandidate> {
  const parts: Buffer[] = [];
  for await (const chunk of input) parts.push(chunk as Buffer);
  let document: unknown;
  try {
    document = JSON.parse(Buffer.concat(parts).toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw new ImportFormatError('The file is not valid JSON.');
  }
  const list = Array.isArray(document) ? document : (document as { data?: unknown })?.data;
  if (!Array.isArray(list)) throw new ImportFormatError('The JSON is neither a list of links nor Kutt\'s {"data": [...]}.');
  let row = 0;
  for (const item of list) {
    const record: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(item as Record<string, unknown>)) {
      record[headerKey(key)] = value === null || value === undefined ? undefined : String(value);
    }
    yield kuttCandidate(++row, record);
  }
}
