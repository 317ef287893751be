import type { TransferLink } from '../core/link-transfer-ports.js';
import { withOption } from '../core/link-options.js';
import { parseCount } from './parse-fields.js';

/** The click limit's and the fallback URL's columns of Linkforge's export (ADR 0019); empty: none. */
export const CLICK_LIMIT_COLUMNS = ['max_clicks', 'clicks_left', 'fallback_url'] as const;
type ClickLimitCells = Record<(typeof CLICK_LIMIT_COLUMNS)[number], string>;

const cell = (value: number | string | null | undefined) => (value === null || value === undefined ? '' : String(value));

export function clickLimitCellsOf(link: TransferLink): ClickLimitCells {
  return { max_clicks: cell(link.maxClicks), clicks_left: cell(link.clicksLeft), fallback_url: cell(link.options?.fallbackUrl) };
}

/** In JSON: numbers and null. */
export function clickLimitJsonValues(cells: ClickLimitCells): Record<string, number | string | null> {
  const orNull = (text: string) => (text === '' ? null : text);
  return {
    max_clicks: cells.max_clicks === '' ? null : Number(cells.max_clicks),
    clicks_left: cells.clicks_left === '' ? null : Number(cells.clicks_left),
    fallback_url: orNull(cells.fallback_url),
  };
}

/**
 * Reads the three columns of a row (keys as headerKey() spells them); absent in files from before
 * they were exported. The fallback URL is checked against the URL rules by the import itself.
 */
export function clickLimitFieldsOf(record: Record<string, unknown>, textOf: (value: unknown) => string | undefined): Pick<TransferLink, 'maxClicks' | 'clicksLeft' | 'options'> {
  const maxClicks = parseCount(textOf(record.maxclicks), 'click limit') ?? null;
  const clicksLeft = parseCount(textOf(record.clicksleft), 'clicks left') ?? null;
  const fallbackUrl = textOf(record.fallbackurl)?.trim() || undefined;
  return { maxClicks, clicksLeft, options: withOption(null, 'fallbackUrl', fallbackUrl) };
}
