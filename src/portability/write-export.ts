import { stringify } from 'csv-stringify/sync';
import type { TransferLink } from '../core/link-transfer-ports.js';
import { clickLimitJsonValues } from './click-limit-columns.js';
import { routingJsonValues } from './routing-columns.js';
import { LINKFORGE_COLUMNS, LINKFORGE_JSON_HEADER, linkforgeRecordOf, neutraliseCell, VISITS_COLUMN } from './linkforge-format.js';

export type ExportFormat = 'csv' | 'json';

/**
 * The export as text, chunk by chunk: CSV with a header row, or JSON Lines after a header line.
 * Nothing in it depends on when or where it was made, so two exports of the same links are equal.
 * CSV cells a spreadsheet would evaluate are neutralised (neutraliseCell); the importer undoes it.
 */
export async function* exportText(links: AsyncIterable<TransferLink>, format: ExportFormat, withVisits: boolean): AsyncGenerator<string> {
  const columns = withVisits ? [...LINKFORGE_COLUMNS, VISITS_COLUMN] : [...LINKFORGE_COLUMNS];
  yield format === 'csv' ? stringify([columns]) : `${JSON.stringify(LINKFORGE_JSON_HEADER)}\n`;
  for await (const link of links) {
    const record = linkforgeRecordOf(link, withVisits);
    if (format === 'json') {
      yield `${JSON.stringify(jsonValues(record))}\n`;
    } else {
      yield stringify([columns.map((column) => neutraliseCell(record[column as keyof typeof record] ?? ''))]);
    }
  }
}

/** In JSON, numbers are numbers, absent times are null and visits a list (not text). */
function jsonValues(record: ReturnType<typeof linkforgeRecordOf>): Record<string, unknown> {
  const orNull = (text: string) => (text === '' ? null : text);
  return {
    code: record.code, url: record.url, status: record.status,
    created_at: record.created_at, updated_at: record.updated_at, expires_at: orNull(record.expires_at), deleted_at: orNull(record.deleted_at),
    redirect_count: Number(record.redirect_count), human_count: Number(record.human_count), bot_count: Number(record.bot_count),
    preview_count: Number(record.preview_count), avg_redirect_ms: Number(record.avg_redirect_ms),
    tags: record.tags === '' ? [] : JSON.parse(record.tags) as unknown,
    redirect_status: record.redirect_status === '' ? null : Number(record.redirect_status),
    preview: record.preview === '' ? null : JSON.parse(record.preview) as unknown,
    ...clickLimitJsonValues(record),
    ...routingJsonValues(record),
    password_hash: orNull(record.password_hash),
    confirm_before_redirect: record.confirm_before_redirect === 'true',
    domain: orNull(record.domain),
    ...(record.visits === undefined ? {} : { visits: JSON.parse(record.visits) as unknown }),
  };
}
