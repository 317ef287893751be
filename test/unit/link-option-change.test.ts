import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withOption } from '../../src/core/link-options.js';

describe('withOption (one option changed, the others kept)', () => {
  test('sets a key on no options', () => {
    assert.deepEqual(withOption(null, 'confirmBeforeRedirect', true), { confirmBeforeRedirect: true });
  });

  test('keeps the other keys when one is set or removed', () => {
    const options = { fallbackUrl: 'https://example.com/', confirmBeforeRedirect: true as const };
    assert.deepEqual(withOption(options, 'confirmBeforeRedirect', undefined), { fallbackUrl: 'https://example.com/' });
    assert.deepEqual(withOption({ fallbackUrl: 'https://example.com/' }, 'confirmBeforeRedirect', true), options);
  });

  test('answers null when the last key goes, so a plain link stays plain', () => {
    assert.equal(withOption({ confirmBeforeRedirect: true }, 'confirmBeforeRedirect', undefined), null);
    assert.equal(withOption(null, 'confirmBeforeRedirect', undefined), null);
  });
});
