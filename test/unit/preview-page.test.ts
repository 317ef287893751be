import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { LinkPreview } from '../../src/core/link-options.js';
import { previewPage } from '../../src/http/preview-page.js';

const SHORT_URL = 'https://lnk.example/abc';
const HOSTILE = '"><script>alert(1)</script>&amp;\'`\n<img src=x onerror=alert(2)>';

const htmlOf = (preview: LinkPreview, destination?: string) => previewPage({ preview, shortUrl: SHORT_URL, destination }).html.toString();

const decode = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The decoded content of one meta tag, or undefined when the page has none. */
function metaContent(html: string, attribute: string, key: string): string | undefined {
  const match = new RegExp(`<meta ${attribute}="${key}" content="([^"<>]*)">`).exec(html);
  return match === null ? undefined : decode(match[1]!);
}

const tagCount = (html: string) => html.split('<').length;

describe('preview page', () => {
  test('carries the Open Graph and X card tags, og:url the short URL, and noindex', () => {
    const html = htmlOf({ title: 'Spring sale', description: 'Half off', image: 'https://cdn.example/card.png' }, 'https://shop.example/sale');
    assert.equal(metaContent(html, 'property', 'og:title'), 'Spring sale');
    assert.equal(metaContent(html, 'property', 'og:description'), 'Half off');
    assert.equal(metaContent(html, 'property', 'og:image'), 'https://cdn.example/card.png');
    assert.equal(metaContent(html, 'property', 'og:url'), SHORT_URL);
    assert.equal(metaContent(html, 'property', 'og:type'), 'website');
    assert.equal(metaContent(html, 'name', 'twitter:card'), 'summary_large_image');
    assert.equal(metaContent(html, 'name', 'twitter:title'), 'Spring sale');
    assert.equal(metaContent(html, 'name', 'twitter:image'), 'https://cdn.example/card.png');
    assert.equal(metaContent(html, 'name', 'robots'), 'noindex');
    assert.match(html, /<title>Spring sale<\/title>/);
    assert.match(html, /<a href="https:\/\/shop\.example\/sale" rel="noreferrer nofollow">Continue to shop\.example<\/a>/);
  });

  test('without an image the card is the small summary, and absent parts have no tag', () => {
    const html = htmlOf({ description: 'Only words' });
    assert.equal(metaContent(html, 'name', 'twitter:card'), 'summary');
    assert.equal(metaContent(html, 'property', 'og:title'), undefined);
    assert.equal(metaContent(html, 'property', 'og:image'), undefined);
    assert.match(html, /<title>Only words<\/title>/);
  });

  test('without a destination (a password link) the page names none', () => {
    const html = htmlOf({ title: 'Members only' });
    assert.doesNotMatch(html, /<a /);
    assert.match(html, /Open this link in a web browser/);
  });

  test('hostile text comes out escaped: no tag, attribute or entity of its own', () => {
    const page = previewPage({ preview: { title: HOSTILE, description: HOSTILE }, shortUrl: SHORT_URL, destination: 'https://shop.example/?q="<x>"' });
    const html = page.html.toString();
    assert.equal(metaContent(html, 'property', 'og:title'), HOSTILE);
    assert.equal(metaContent(html, 'name', 'twitter:description'), HOSTILE);
    assert.doesNotMatch(html, /<script|<img|onerror=alert\(2\)>/);
    assert.equal(tagCount(html), tagCount(previewPage({ preview: { title: 'x', description: 'x' }, shortUrl: SHORT_URL, destination: 'https://shop.example/' }).html.toString()));
    assert.equal(JSON.parse(page.json.toString()).title, HOSTILE);
  });

  test('any text round-trips through the tags and adds no markup (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (title, description) => {
      const html = htmlOf({ title, description }, 'https://shop.example/');
      assert.equal(metaContent(html, 'property', 'og:title'), title);
      assert.equal(metaContent(html, 'property', 'og:description'), description);
      assert.equal(tagCount(html), tagCount(htmlOf({ title: 'x', description: 'x' }, 'https://shop.example/')));
    }));
  });

  test('answers 200 in HTML unless JSON is named, with a policy that loads nothing but its style and noindex on both variants', () => {
    const page = previewPage({ preview: { title: 'T' }, shortUrl: SHORT_URL });
    assert.equal(page.status, 200);
    assert.equal(page.htmlByDefault, true);
    assert.match(page.headers!.html!['content-security-policy']!, /^default-src 'none'; style-src 'self'/);
    assert.equal(page.headers!.html!['x-robots-tag'], 'noindex');
    assert.equal(page.headers!.json!['x-robots-tag'], 'noindex');
    assert.deepEqual(JSON.parse(page.json.toString()), { url: SHORT_URL, title: 'T' });
  });
});
