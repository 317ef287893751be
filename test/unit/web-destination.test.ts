import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withScheme, withUtm } from '../../web/src/destination.js';
import { returnPath } from '../../web/src/return-path.js';
import { contrastRatio } from '../../web/src/colour.js';
import { redirectStatusText } from '../../web/src/redirect-status.js';

describe('creating a link in the web UI', () => {
  test('a destination without a scheme gains https://; one with a scheme is left for the API to judge', () => {
    assert.equal(withScheme('example.com/page'), 'https://example.com/page');
    assert.equal(withScheme('  example.com:8080/x?q=1 '), 'https://example.com:8080/x?q=1');
    assert.equal(withScheme('//example.com/x'), 'https://example.com/x');
    assert.equal(withScheme('http://example.com'), 'http://example.com');
    assert.equal(withScheme('HTTPS://example.com'), 'HTTPS://example.com');
    assert.equal(withScheme('ftp://example.com/file'), 'ftp://example.com/file');
    assert.equal(withScheme('javascript:alert(1)'), 'javascript:alert(1)');
    assert.equal(withScheme('mailto:a@example.com'), 'mailto:a@example.com');
    assert.equal(withScheme(''), '');
  });

  test('UTM values are set as utm_* parameters, replacing ones already there; none filled leaves the URL as typed', () => {
    assert.equal(withUtm('https://example.com/p?a=1&utm_source=old', { source: ' news ', medium: 'email', term: '' }),
      'https://example.com/p?a=1&utm_source=news&utm_medium=email');
    assert.equal(withUtm('https://example.com', { campaign: 'spring sale' }), 'https://example.com/?utm_campaign=spring+sale');
    assert.equal(withUtm('https://example.com', { source: '  ' }), 'https://example.com');
    assert.equal(withUtm('not a url', { source: 'x' }), 'not a url');
  });

  test('after signing in, ?next= leads only to a page of this UI', () => {
    assert.equal(returnPath('/app/links/7'), '/app/links/7');
    assert.equal(returnPath('/app/dashboard?q=shoes&status=ACTIVE'), '/app/dashboard?q=shoes&status=ACTIVE');
    assert.equal(returnPath('/'), '/');
    for (const bad of [null, '', 'https://evil.example/', '//evil.example/app/', '/\\evil.example', '/app/../../x y', 'javascript:alert(1)', '/docs']) {
      assert.equal(returnPath(bad), '/app/dashboard', String(bad));
    }
  });

  test('the QR colours\' contrast is the WCAG ratio', () => {
    assert.equal(contrastRatio('#000000', '#ffffff'), 21);
    assert.equal(contrastRatio('#ffffff', '#000000'), 21);
    assert.equal(contrastRatio('#777777', '#777777'), 1);
    assert.ok(Math.abs(contrastRatio('#767676', '#ffffff') - 4.54) < 0.01);
  });
});

describe('a link\'s redirect status on its page', () => {
  test('null is the instance\'s rule; a permanent status on an expiring link says which temporary one it answers', () => {
    assert.equal(redirectStatusText(null, false), 'Default (permanent unless it expires)');
    assert.equal(redirectStatusText(307, false), '307 Temporary Redirect');
    assert.equal(redirectStatusText(301, false), '301 Moved Permanently');
    assert.equal(redirectStatusText(301, true), '301 Moved Permanently (answers 302 while the link has an expiry)');
    assert.equal(redirectStatusText(308, true), '308 Permanent Redirect (answers 307 while the link has an expiry)');
    assert.equal(redirectStatusText(302, true), '302 Found');
    assert.equal(redirectStatusText(null, false, true), 'Temporary (302): the link\'s options may answer each visit otherwise');
    assert.equal(redirectStatusText(308, false, true), '308 Permanent Redirect (answers 307 while the link has options)');
    assert.equal(redirectStatusText(307, false, true), '307 Temporary Redirect');
  });
});
