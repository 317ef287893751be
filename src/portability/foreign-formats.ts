import type { ImportCandidate } from './import-candidate.js';
import { codeOfShortLink, parseCount, parseTime } from './parse-fields.js';

/** A CSV row (or JSON object) keyed by headerKey(name): lower case, no spaces or underscores. */
export type KeyedRecord = Readonly<Record<string, string | undefined>>;

type Fields = ImportCandidate['fields'];

/** The other shorteners count clicks without telling people from crawlers: all of them are clicks here. */
function clicks(count: number | undefined): Fields {
  return count === undefined ? {} : { redirectCount: count, humanCount: count };
}

function candidate(row: number, code: string, url: string | undefined, fields: () => Fields): ImportCandidate {
  try {
    return { row, code, url: url?.trim() ?? '', fields: fields() };
  } catch (error) {
    return { row, code, url: url?.trim() ?? '', fields: {}, problem: (error as Error).message };
  }
}

/**
 * Bitly, both exports in use: the API's `link,long_url,title,created_at,…` (a `custom_bitlinks`
 * list may follow) and the web app's `Link,Custom Link,Destination URL,Title,Date Created,…`. The
 * custom back-half, when there is one, is the link people were given, so it is the code kept.
 */
export function bitlyCandidate(row: number, r: KeyedRecord): ImportCandidate {
  const custom = codeOfShortLink(r.customlink) || codeOfShortLink(r.custombitlinks?.split(/[|;, ]+/)[0]);
  const code = custom || codeOfShortLink(r.link);
  return candidate(row, code, r.longurl ?? r.destinationurl, () => ({
    createdAt: parseTime(r.createdat ?? r.datecreated ?? r.created, 'creation date'),
    ...clicks(parseCount(r.totalclicks ?? r.clicks ?? r.engagements ?? r.totalengagements, 'click count')),
  }));
}

/**
 * Shlink's CSV (web client and `short-url:list --csv`): `createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits`,
 * its tags separated by `|`. Shlink's tags have no colour of their own: they come in grey.
 */
export function shlinkCandidate(row: number, r: KeyedRecord): ImportCandidate {
  const tags = r.tags?.split('|').map((name) => name.trim()).filter((name) => name !== '');
  return candidate(row, r.shortcode?.trim() ?? '', r.longurl, () => ({
    ...(tags?.length && { tags: tags.map((name) => ({ name })) }),
    createdAt: parseTime(r.createdat ?? r.datecreated, 'creation date'),
    expiresAt: parseTime(r.validuntil, 'expiry') ?? null,
    ...clicks(parseCount(r.visits ?? r.visitscount, 'visit count')),
  }));
}

/**
 * Kutt's links as its API lists them (`address`, `target`, `visit_count`, `expire_in`, `banned`),
 * in JSON or as CSV with the same columns. A banned link no longer redirects: it comes in deleted.
 */
export function kuttCandidate(row: number, r: KeyedRecord): ImportCandidate {
  return candidate(row, r.address?.trim() ?? '', r.target, () => {
    const createdAt = parseTime(r.createdat, 'creation date');
    const updatedAt = parseTime(r.updatedat, 'update date');
    const banned = /^(true|1)$/i.test(r.banned?.trim() ?? '');
    return {
      createdAt, updatedAt,
      expiresAt: parseTime(r.expirein, 'expiry') ?? null,
      ...(banned ? { status: 'DELETED' as const, deletedAt: updatedAt ?? createdAt ?? null } : {}),
      ...clicks(parseCount(r.visitcount, 'visit count')),
    };
  });
}

/** YOURLS's `yourls_url` table as its export plugins write it: `keyword,url,title,timestamp,ip,clicks`. */
export function yourlsCandidate(row: number, r: KeyedRecord): ImportCandidate {
  return candidate(row, r.keyword?.trim() ?? '', r.url, () => ({
    createdAt: parseTime(r.timestamp, 'timestamp'),
    ...clicks(parseCount(r.clicks, 'click count')),
  }));
}
