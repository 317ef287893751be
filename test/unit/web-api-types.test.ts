import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { renderApiFiles } from '../../scripts/generate-api-types.js';

test('the web UI\'s generated API types and limits match the routes\' OpenAPI document (else run npm run generate:api-types)', async () => {
  for (const [file, expected] of Object.entries(await renderApiFiles())) {
    const checkedIn = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    assert.ok(checkedIn === expected, `${path.relative(process.cwd(), file)} is stale: run npm run generate:api-types and commit the result`);
  }
});
