import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import type { TransferLink } from '../../src/core/link-transfer-ports.js';
import type { ImportCandidate, ImportFormat } from '../../src/portability/import-candidate.js';
import { codeOfShortLink, parseTime } from '../../src/portability/parse-fields.js';
import type { ImportLimits } from '../../src/portability/import-limits.js';
import { readImport } from '../../src/portability/read-import.js';
import { exportText } from '../../src/portability/write-export.js';

const LIMITS: ImportLimits = { maxRows: 500_000, maxFields: 64, maxRowBytes: 1024 * 1024 };

async function read(text: string, forced?: ImportFormat): Promise<{ format: ImportFormat; rows: ImportCandidate[] }> {
  const source = await readImport(Readable.from([Buffer.from(text)]), LIMITS, forced);
  const rows: ImportCandidate[] = [];
  for await (const row of source.candidates) rows.push(row);
  return { format: source.format, rows };
}

async function* each<T>(items: readonly T[]) {
  yield* items;
}

async function textOf(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

describe('import formats: detection and mapping', () => {
  test('each header set is recognised, however its names are spelled or whatever columns follow', async () => {
    const cases: Array<[string, ImportFormat, string, string]> = [
      ['link,long_url,title,created_at,archived\nhttps://bit.ly/abc,https://e.com/,,2023-01-01T00:00:00Z,false', 'bitly', 'abc', 'https://e.com/'],
      ['Link,Custom Link,Destination URL,Title,Date Created\nbit.ly/xyz,bit.ly/my-brand,https://e.com/b,,2024-01-15 09:30:00 UTC', 'bitly', 'my-brand', 'https://e.com/b'],
      ['createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\n2022-11-05T14:02:11+00:00,,s1,https://s/s1,https://e.com/s,,,4', 'shlink', 's1', 'https://e.com/s'],
      ['address,target,visit_count\nk1,https://e.com/k,2', 'kutt-csv', 'k1', 'https://e.com/k'],
      ['\uFEFFkeyword,url,title,timestamp,ip,clicks\nab,https://e.com/y,,2021-02-03 04:05:06,127.0.0.1,9', 'yourls', 'ab', 'https://e.com/y'],
      ['[{"address":"k2","target":"https://e.com/k2","visit_count":1}]', 'kutt-json', 'k2', 'https://e.com/k2'],
    ];
    for (const [text, format, code, url] of cases) {
      const result = await read(text);
      assert.equal(result.format, format, text);
      assert.deepEqual([result.rows[0]?.code, result.rows[0]?.url, result.rows[0]?.problem], [code, url, undefined], text);
    }
  });

  test('the other shorteners\' counts and dates are kept: clicks as human redirects, dates as UTC', async () => {
    const { rows } = await read('keyword,url,title,timestamp,ip,clicks\nab,https://e.com/y,,2021-02-03 04:05:06,127.0.0.1,"1,200"');
    assert.deepEqual(rows[0]?.fields, { createdAt: Date.parse('2021-02-03T04:05:06Z'), redirectCount: 1200, humanCount: 1200 });
    const kutt = await read('{"data":[{"address":"x1","target":"https://e.com/","banned":true,"created_at":"2023-09-01T00:00:00Z","updated_at":"2023-09-02T00:00:00Z","expire_in":null}]}');
    assert.deepEqual(kutt.rows[0]?.fields, {
      createdAt: Date.parse('2023-09-01T00:00:00Z'), updatedAt: Date.parse('2023-09-02T00:00:00Z'), expiresAt: null, status: 'DELETED', deletedAt: Date.parse('2023-09-02T00:00:00Z'),
    });
  });

  test('a row with a date that is not one is read with its problem, and the rows after it still are', async () => {
    const { rows } = await read('keyword,url,timestamp\nab,https://e.com/1,yesterday\ncd,https://e.com/2,2021-01-01 00:00:00');
    assert.match(rows[0]!.problem!, /"yesterday" is not a date/);
    assert.equal(rows[1]?.problem, undefined);
  });

  test('an unknown header, a forced format without its columns, an empty file and broken CSV are format errors', async () => {
    await assert.rejects(read('name,address\nx,y'), /Unknown format: the header "name,address"/);
    await assert.rejects(read('keyword,url\nab,https://e.com/', 'shlink'), /not a shlink export: it lacks the column\(s\) shortcode, longurl/);
    await assert.rejects(read(''), /The file is empty/);
    await assert.rejects(read('{"format":"nope"'), /not valid JSON/);
    await assert.rejects(read('keyword,url\nab,https://e.com/\n"cd,https://e.com/2\n'), /cannot be read after data row 1/);
  });

  test('dates: ISO, MySQL-style and epoch seconds or milliseconds; empty is absent', () => {
    assert.equal(parseTime('2021-02-03 04:05:06', 'd'), Date.parse('2021-02-03T04:05:06Z'));
    assert.equal(parseTime('2024-01-15 09:30:00 UTC', 'd'), Date.parse('2024-01-15T09:30:00Z'));
    assert.equal(parseTime('1700000000', 'd'), 1_700_000_000_000);
    assert.equal(parseTime('1700000000123', 'd'), 1_700_000_000_123);
    assert.equal(parseTime(' ', 'd'), undefined);
  });

  test('short links give their back-half, with or without a scheme', () => {
    assert.equal(codeOfShortLink('https://bit.ly/3xYz/'), '3xYz');
    assert.equal(codeOfShortLink('bit.ly/abc'), 'abc');
    assert.equal(codeOfShortLink('abc'), 'abc');
    assert.equal(codeOfShortLink(''), '');
  });
});

/** Browser and OS names as ua-parser gives them: the only ones an import accepts. */
const visitName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ._+\-/()!:,]{0,63}$/);

const transferLink: fc.Arbitrary<TransferLink> = fc.record({
  code: fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  // A custom domain's hostname, or none (the default short domain, an empty cell).
  domain: fc.option(fc.domain(), { nil: undefined }),
  originalUrl: fc.webUrl({ withQueryParameters: true, withFragments: true }),
  status: fc.constantFrom('ACTIVE', 'EXPIRED', 'DELETED'),
  createdAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  updatedAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  expiresAt: fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: null }),
  deletedAt: fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: null }),
  redirectCount: fc.nat(), humanCount: fc.nat(), botCount: fc.nat(), previewCount: fc.nat(),
  avgRedirectMs: fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
  tags: fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 32 }), colour: fc.constantFrom('gray', 'teal', '#12ab34') }), { minLength: 1, maxLength: 3 })
    .map((tags) => tags.map((tag) => ({ ...tag }))), // plain objects, as the reader makes
  redirectStatus: fc.option(fc.constantFrom(301 as const, 302 as const, 307 as const, 308 as const), { nil: null }),
  passwordHash: fc.option(fc.stringMatching(/^[./A-Za-z0-9]{53}$/).map((tail) => `$2b$10$${tail}`), { nil: null }),
  maxClicks: fc.option(fc.integer({ min: 1, max: 1_000_000_000 }), { nil: null }),
  clicksLeft: fc.option(fc.nat({ max: 1_000_000_000 }), { nil: null }),
  options: fc.option(fc.record({
    fallbackUrl: fc.webUrl(),
    confirmBeforeRedirect: fc.constant(true as const),
    preview: fc.record({ title: fc.string({ unit: 'grapheme' }), description: fc.string(), image: fc.webUrl() }, { requiredKeys: [] }).map((preview) => ({ ...preview })),
    routing: fc.constantFrom({ routes: [{ country: ['DE', 'AT'], device: ['ios' as const], url: 'https://example.com/=de' }] },
      { variants: [{ url: 'https://example.com/a', weight: 3 }, { url: 'https://example.com/b', weight: 1 }] },
      { routes: [{ language: ['pt'], url: 'https://example.com/pt' }], variants: [{ url: 'https://example.com/a', weight: 1 }, { url: 'https://example.com/b', weight: 1 }] }),
  }, { requiredKeys: [] }).map(({ routing, ...options }) => ({ ...options, ...routing })).filter((options) => Object.keys(options).length > 0), { nil: null }),
  visits: fc.array(fc.record({
    visitedAt: fc.integer({ min: 0, max: 4_102_444_800_000 }),
    latencyMs: fc.double({ min: 0, max: 1e4, noNaN: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    visitorClass: fc.constantFrom('human', 'bot', 'preview'),
    referrerHost: fc.option(fc.domain(), { nil: null }), browser: fc.option(visitName, { nil: null }),
    os: fc.option(visitName, { nil: null }), device: fc.option(fc.constantFrom('desktop', 'mobile', 'tablet', 'other', 'bot'), { nil: null }),
    country: fc.option(fc.constantFrom('GB', 'NL', 'US', 'JP'), { nil: null }),
    region: fc.option(fc.constantFrom('England', 'Noord-Holland', 'Île-de-France'), { nil: null }),
    city: fc.option(fc.constantFrom('London', 'São Paulo', 'Saint-Denis, Réunion', '(other)', '=cmd|calc'), { nil: null }),
  }), { maxLength: 3 }),
}).map((link) => ({ ...link, visits: link.visits!.map((visit) => ({ ...visit })) })); // plain objects, as the reader makes

describe('Linkforge\'s own format', () => {
  for (const format of ['csv', 'json'] as const) {
    test(`${format}: whatever is written is read back field for field (property)`, async () => {
      await fc.assert(fc.asyncProperty(fc.array(transferLink, { maxLength: 5 }), async (links) => {
        const { format: detected, rows } = await read(await textOf(exportText(each(links), format, true)));
        assert.equal(detected, `linkforge-${format}`);
        assert.deepEqual(rows.map((row) => ({ code: row.code, originalUrl: row.url, ...row.fields })), links);
      }), { numRuns: 60 });
    });
  }
});
