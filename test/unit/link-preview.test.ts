import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseBlocklist, type UrlPolicy } from '../../src/core/canonical-url.js';
import { ValidationError } from '../../src/core/errors.js';
import { withOption } from '../../src/core/link-options.js';
import { MAX_PREVIEW_DESCRIPTION, MAX_PREVIEW_TITLE, parseLinkPreview, type LinkPreviewInput } from '../../src/core/link-preview.js';

const policy: UrlPolicy = { maxLength: 4096, shortHosts: ['lnk.example'], allowPrivate: false, blockedDomains: parseBlocklist('evil.example\n') };

function rejection(input: LinkPreviewInput): { code: string; field: unknown } {
  try {
    parseLinkPreview(input, policy);
  } catch (error) {
    assert.ok(error instanceof ValidationError, String(error));
    return { code: error.code, field: error.extra.field };
  }
  assert.fail(`expected ${JSON.stringify(input)} to be rejected`);
}

describe('link preview rules', () => {
  test('text is trimmed, empty parts are dropped, and the image keeps its WHATWG form', () => {
    assert.deepEqual(parseLinkPreview({ title: '  Spring sale ', description: '', image: 'https://cdn.example/Card.png' }, policy),
      { title: 'Spring sale', image: 'https://cdn.example/Card.png' });
  });

  test('a preview needs at least one of title, description or image', () => {
    assert.deepEqual(rejection({}), { code: 'preview_invalid', field: 'preview' });
    assert.deepEqual(rejection({ title: '   ', image: '' }), { code: 'preview_invalid', field: 'preview' });
  });

  test('title and description have their limits, counted in characters', () => {
    assert.equal(parseLinkPreview({ title: '😀'.repeat(MAX_PREVIEW_TITLE) }, policy).title?.length, MAX_PREVIEW_TITLE * 2);
    assert.deepEqual(rejection({ title: 'a'.repeat(MAX_PREVIEW_TITLE + 1) }), { code: 'preview_invalid', field: 'preview.title' });
    assert.deepEqual(rejection({ description: 'a'.repeat(MAX_PREVIEW_DESCRIPTION + 1) }), { code: 'preview_invalid', field: 'preview.description' });
  });

  test('control characters, line breaks included, are refused', () => {
    for (const text of ['a\nb', 'a\u0000b', 'a\u007Fb', 'a\u0085b', 'a\rb']) {
      assert.deepEqual(rejection({ title: text }), { code: 'preview_invalid', field: 'preview.title' }, JSON.stringify(text));
      assert.deepEqual(rejection({ description: text }), { code: 'preview_invalid', field: 'preview.description' }, JSON.stringify(text));
    }
  });

  test('the image follows the destination rules and the error names preview.image', () => {
    assert.deepEqual(rejection({ image: 'javascript:alert(1)' }), { code: 'url_scheme_not_allowed', field: 'preview.image' });
    assert.deepEqual(rejection({ image: 'http://127.0.0.1/a.png' }), { code: 'url_private_address_not_allowed', field: 'preview.image' });
    assert.deepEqual(rejection({ image: 'https://img.evil.example/a.png' }), { code: 'url_domain_blocked', field: 'preview.image' });
    assert.deepEqual(rejection({ image: '/relative.png' }), { code: 'url_invalid', field: 'preview.image' });
    assert.equal(parseLinkPreview({ image: 'http://cdn.example/a.png' }, policy).image, 'http://cdn.example/a.png');
  });
});

describe('withOption', () => {
  test('sets one key and keeps the others', () => {
    assert.deepEqual(withOption({ fallbackUrl: 'https://a.example/' }, 'preview', { title: 'T' }), { fallbackUrl: 'https://a.example/', preview: { title: 'T' } });
    assert.deepEqual(withOption(null, 'preview', { title: 'T' }), { preview: { title: 'T' } });
  });

  test('removes a key with null, and answers null when none is left', () => {
    assert.deepEqual(withOption({ fallbackUrl: 'https://a.example/', preview: { title: 'T' } }, 'preview', null), { fallbackUrl: 'https://a.example/' });
    assert.equal(withOption({ preview: { title: 'T' } }, 'preview', null), null);
    assert.equal(withOption(null, 'preview', undefined), null);
  });
});
