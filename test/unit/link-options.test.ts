import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withOption } from '../../src/core/link-options.js';

describe('withOption', () => {
  test('sets one key and keeps the others', () => {
    const options = { confirmBeforeRedirect: true as const };
    assert.deepEqual(withOption(options, 'fallbackUrl', 'https://example.com/'), { confirmBeforeRedirect: true, fallbackUrl: 'https://example.com/' });
    assert.deepEqual(options, { confirmBeforeRedirect: true }, 'the given options are not changed');
  });

  test('removes a key given null or undefined, and answers null when nothing is left', () => {
    assert.equal(withOption({ fallbackUrl: 'https://example.com/' }, 'fallbackUrl', null), null);
    assert.deepEqual(withOption({ fallbackUrl: 'https://example.com/', confirmBeforeRedirect: true }, 'fallbackUrl', undefined), { confirmBeforeRedirect: true });
    assert.equal(withOption(null, 'fallbackUrl', null), null);
  });
});
