import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { TransferLink } from '../../src/core/link-transfer-ports.js';
import { ImportFormatError, type ImportCandidate, type ImportFormat } from '../../src/portability/import-candidate.js';
import { ImportEncodingError, ImportLimitError, type ImportLimits } from '../../src/portability/import-limits.js';
import { neutraliseCell, restoreCell } from '../../src/portability/linkforge-format.js';
import { readImport } from '../../src/portability/read-import.js';
import { exportText } from '../../src/portability/write-export.js';

const LIMITS: ImportLimits = { maxRows: 1000, maxFields: 64, maxRowBytes: 4096 };

async function readAll(chunks: Iterable<Buffer | string> | AsyncIterable<Buffer | string>, limits = LIMITS, forced?: ImportFormat): Promise<ImportCandidate[]> {
  const source = await readImport(Readable.from(chunks, { objectMode: false }), limits, forced);
  const rows: ImportCandidate[] = [];
  for await (const row of source.candidates) rows.push(row);
  return rows;
}

describe('Kutt JSON is read as a stream', () => {
  test('the first link is answered before the rest of the document has been read', async () => {
    let firstAnswered = false;
    let restReadBeforeFirstAnswered = false;
    async function* chunks() {
      yield Buffer.from('{"data":[{"address":"one","target":"https://example.com/1"},');
      restReadBeforeFirstAnswered = !firstAnswered;
      yield Buffer.from('{"address":"two","target":"https://example.com/2"}],"total":2}');
    }
    const source = await readImport(chunks(), LIMITS);
    const codes: string[] = [];
    for await (const row of source.candidates) {
      firstAnswered = true;
      codes.push(row.code);
    }
    assert.deepEqual(codes, ['one', 'two']);
    assert.equal(restReadBeforeFirstAnswered, false);
  });

  test('a document nested deeper than the cap is a format error, not a stack overflow', async () => {
    await assert.rejects(readAll([`${'['.repeat(100_000)}${']'.repeat(100_000)}`]), (error) => error instanceof ImportFormatError && /nested deeper/.test(error.message));
  });

  test('a list or object beside "data" is refused rather than held in memory', async () => {
    await assert.rejects(readAll(['{"junk":[1,2,3],"data":[]}']), ImportFormatError);
    await assert.rejects(readAll(['{"total":1}']), /neither a list of links/);
  });

  test('a document cut short is a format error', async () => {
    await assert.rejects(readAll(['[{"address":"a","target":"https://example.com/"},']), /not valid JSON/);
  });

  test('a link larger than the row cap stops the reading, even when spread over many chunks', async () => {
    const big = `[{"address":"a","target":"https://example.com/${'x'.repeat(10_000)}"}]`;
    await assert.rejects(readAll(big.match(/.{1,100}/gs)!), ImportLimitError);
  });
});

describe('every format stops at the limits', () => {
  const limits: ImportLimits = { maxRows: 2, maxFields: 3, maxRowBytes: 256 };
  const cases: Array<[string, string, string, string]> = [
    ['CSV', 'keyword,url\na,https://e.com/a\nb,https://e.com/b\nc,https://e.com/c\n', 'keyword,url\na,https://e.com/a,1,2,3\n', `keyword,url\na,https://e.com/${'x'.repeat(300)}\n`],
    ['Linkforge JSON Lines', '{"format":"linkforge","version":1}\n{"code":"a"}\n{"code":"b"}\n{"code":"c"}\n', '{"format":"linkforge","version":1}\n{"code":"a","b":1,"c":2,"d":3}\n', `{"format":"linkforge","version":1}\n{"code":"${'x'.repeat(300)}"}\n`],
    ['Kutt JSON', '[{"address":"a"},{"address":"b"},{"address":"c"}]', '[{"address":"a","b":1,"c":2,"d":3}]', `[{"address":"${'x'.repeat(300)}"}]`],
  ];
  for (const [format, tooManyRows, tooManyFields, tooLong] of cases) {
    test(`${format}: rows, fields per row and bytes per row`, async () => {
      await assert.rejects(readAll([tooManyRows], limits), /more than 2 rows/);
      await assert.rejects(readAll([tooManyFields], limits), /more than 3 fields/);
      await assert.rejects(readAll([tooLong], limits), ImportLimitError);
    });
  }
});

describe('encoding', () => {
  test('bytes that are not UTF-8 are refused, in any format', async () => {
    const bad = Buffer.from([0xff, 0xfe, 0x41]);
    await assert.rejects(readAll([Buffer.concat([Buffer.from('keyword,url\nab,https://e.com/'), bad, Buffer.from('\n')])]), ImportEncodingError);
    await assert.rejects(readAll([Buffer.concat([Buffer.from('[{"address":"'), bad, Buffer.from('"}]')])]), ImportEncodingError);
  });

  test('a character cut between two chunks is read whole', async () => {
    const text = Buffer.from('keyword,url\ncafé,https://e.com/café\n');
    const cut = text.indexOf(0xc3);
    const rows = await readAll([text.subarray(0, cut + 1), text.subarray(cut + 1)]);
    assert.equal(rows[0]?.code, 'café');
    assert.equal(rows[0]?.url, 'https://e.com/café');
  });
});

describe('CSV export and spreadsheets', () => {
  test('cells a spreadsheet would evaluate get a leading quote, and reading our export back removes it', async () => {
    const link: TransferLink = {
      code: '-2+3', originalUrl: 'https://example.com/', status: 'ACTIVE', createdAt: 0, updatedAt: 0, expiresAt: null, deletedAt: null,
      redirectCount: 0, humanCount: 0, botCount: 0, previewCount: 0, avgRedirectMs: 0,
    };
    let csv = '';
    for await (const chunk of exportText((async function* () { yield link; })(), 'csv', false)) csv += chunk;
    assert.match(csv.split('\n')[1]!, /^'-2\+3,/);
    const rows = await readAll([csv]);
    assert.equal(rows[0]?.code, '-2+3');
  });

  test('neutralising is undone exactly, whatever quotes the cell already had', () => {
    for (const cell of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', "'=1", "''@x", "'plain", 'plain', '']) {
      assert.equal(restoreCell(neutraliseCell(cell)), cell, JSON.stringify(cell));
      assert.doesNotMatch(neutraliseCell(cell), /^[=+\-@\t\r]/, JSON.stringify(cell));
    }
  });
});
