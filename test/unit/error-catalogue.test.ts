import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/core/error-codes.js';
import { LinkforgeError, ValidationError } from '../../src/core/errors.js';
import { FAILURE_RESPONSES } from '../../src/http/redirect-pages.js';

describe('error catalogue', () => {
  test('a code takes its status, title and default detail from the catalogue', () => {
    const error = new LinkforgeError('link_not_deleted');
    assert.equal(error.status, 409);
    assert.equal(error.title, ERROR_CATALOGUE.link_not_deleted.title);
    assert.equal(error.message, ERROR_CATALOGUE.link_not_deleted.detail);
    assert.equal(new LinkforgeError('code_taken', 'More precise.').message, 'More precise.');
  });

  test('the compiler refuses a code that is not in the catalogue, and a non-400 code for a ValidationError', () => {
    // These lines are checked by `npm run typecheck`: it fails if either is accepted.
    // @ts-expect-error an unknown code
    assert.throws(() => new LinkforgeError('no_such_code'));
    // @ts-expect-error link_not_found is a 404, not a rule broken by input
    assert.equal(new ValidationError('link_not_found').status, 404);
  });

  test('every code is snake_case and answers a 4xx or 5xx status', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      assert.match(code, /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/, code);
      assert.ok(entry.status >= 400 && entry.status < 600, code);
      assert.ok(entry.title.length > 0 && entry.detail.endsWith('.'), code);
    }
  });

  test('the redirect failure pages answer with the catalogue status, title and code', () => {
    const expected: Record<keyof typeof FAILURE_RESPONSES, ErrorCode> = {
      not_found: 'link_not_found', expired: 'link_expired', deleted: 'link_deleted', unavailable: 'store_unavailable',
      rate_limited: 'rate_limit_exceeded',
    };
    for (const [kind, code] of Object.entries(expected) as Array<[keyof typeof FAILURE_RESPONSES, ErrorCode]>) {
      const page = FAILURE_RESPONSES[kind];
      const body = JSON.parse(page.json.toString());
      assert.equal(page.status, ERROR_CATALOGUE[code].status, kind);
      assert.equal(body.status, ERROR_CATALOGUE[code].status, kind);
      assert.equal(body.title, ERROR_CATALOGUE[code].title, kind);
      assert.equal(body.code, code, kind);
      assert.match(page.html.toString(), new RegExp(body.detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), kind);
    }
  });
});
