import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { REGION_NAMES_FILE, regionNamesFromIcu, renderRegionNames } from '../../scripts/generate-region-names.js';
import { regionName } from '../../src/core/region-names.js';

test('the checked-in region names are ICU\'s English names (else run npm run generate:region-names)', () => {
  assert.ok(fs.readFileSync(REGION_NAMES_FILE, 'utf8') === renderRegionNames(), 'src/core/region-names.ts is stale: run npm run generate:region-names and commit the result');
});

test('regionName answers what Intl.DisplayNames answers for every two-letter code, and nothing for the rest', () => {
  const icu = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const first of letters) {
    for (const second of letters) {
      const code = first + second;
      const expected = code === 'ZZ' || icu.of(code) === code ? undefined : icu.of(code);
      assert.equal(regionName(code), expected, code);
    }
  }
  assert.ok(regionNamesFromIcu().length > 250);
  for (const notACode of ['de', 'toString', '__proto__', 'constructor', '', 'DEU']) assert.equal(regionName(notACode), undefined, notACode);
});
