import { stringify } from 'csv-stringify/sync';
import type { ExportedLink, ExportedVisit } from '../core/visit-export-ports.js';
import { neutraliseCell } from './linkforge-format.js';

/** A visit's columns; never an address (none is stored). */
export const VISIT_COLUMNS = ['time', 'class', 'country', 'city', 'referrer_host', 'browser', 'os', 'device', 'destination'] as const;
/** A workspace's export names each visit's link first. */
export const WORKSPACE_VISIT_COLUMNS = ['link_id', 'code', ...VISIT_COLUMNS] as const;

function visitCells(visit: ExportedVisit): string[] {
  return [
    new Date(visit.visitedAt).toISOString(), visit.visitorClass, visit.country ?? '', visit.city ?? '',
    visit.referrerHost ?? '', visit.browser ?? '', visit.os ?? '', visit.device ?? '', visit.destination ?? '',
  ];
}

/**
 * CSV lines (RFC 4180: quoted when needed, CRLF) for one page of visits. A cell a spreadsheet would
 * evaluate (a referrer host starting with `=`, `+`, `-` or `@`) gets a leading `'`, as the link
 * export does (neutraliseCell). An unknown value is an empty cell.
 */
export function visitCsvLines(link: ExportedLink | undefined, visits: readonly ExportedVisit[]): string {
  return stringify(visits.map((visit) => {
    const cells = visitCells(visit).map(neutraliseCell);
    return link === undefined ? cells : [String(link.id), neutraliseCell(link.code), ...cells];
  }), { record_delimiter: 'windows' });
}

export function csvHeaderLine(columns: readonly string[]): string {
  return stringify([columns], { record_delimiter: 'windows' });
}
