import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalize, parseBlocklist, parseDestination, type UrlPolicy } from '../../src/core/canonical-url.js';
import { ValidationError } from '../../src/core/errors.js';
import { isForbiddenAddress } from '../../src/core/ip-ranges.js';

const policy: UrlPolicy = {
  maxLength: 4096,
  shortHosts: ['lnk.example', 'Short.Example'],
  allowPrivate: false,
  blockedDomains: parseBlocklist('evil.com\nbad.example.org\n'),
};
const permissive: UrlPolicy = { ...policy, allowPrivate: true };

function rejectionCode(raw: unknown, withPolicy: UrlPolicy = policy): string {
  try {
    parseDestination(raw, withPolicy);
  } catch (error) {
    assert.ok(error instanceof ValidationError, `expected a ValidationError, got ${String(error)}`);
    return error.code;
  }
  assert.fail(`expected ${JSON.stringify(raw)?.slice(0, 200)} to be rejected`);
}

function assertRejected(raw: unknown, code: string, withPolicy: UrlPolicy = policy): void {
  assert.equal(rejectionCode(raw, withPolicy), code, `for input ${JSON.stringify(raw)?.slice(0, 200)}`);
}

describe('canonical form (docs/specification.md, "Destinations and canonical URLs")', () => {
  const vectors: Array<[string, string]> = [
    ['HTTP://Example.COM/path', 'http://example.com/path'],
    ['http://example.com:80/path/', 'http://example.com/path'],
    ['http://example.com/path?z=1&a=2#top', 'http://example.com/path?a=2&z=1'],
    ['HTTPS://EXAMPLE.COM:443', 'https://example.com/'],
    ['http://example.com/a//?b=2&a=1&b=1', 'http://example.com/a?a=1&b=2&b=1'],
    ['https://app.example.com/#/settings', 'https://app.example.com/#/settings'],
    ['https://example.com/page#section-2', 'https://example.com/page'],
  ];
  for (const [input, canonical] of vectors) {
    test(`${input} becomes ${canonical}`, () => {
      assert.equal(parseDestination(input, policy).normalizedUrl, canonical);
    });
  }
});

describe('canonical form details', () => {
  test('percent-escape hex digits are upper-cased in path and query but the original URL keeps them', () => {
    const destination = parseDestination('http://example.com/a%7eb%aF/?q=%2f%7e%Fa', policy);
    assert.equal(destination.normalizedUrl, 'http://example.com/a%7Eb%AF?q=%2F%7E%FA');
    assert.equal(destination.originalUrl, 'http://example.com/a%7eb%aF/?q=%2f%7e%Fa');
  });

  test('a non-default port is kept in the host', () => {
    assert.equal(parseDestination('https://example.com:8443/x/', policy).normalizedUrl, 'https://example.com:8443/x');
  });

  test('a path made only of slashes becomes a single slash', () => {
    assert.equal(parseDestination('http://example.com////', policy).normalizedUrl, 'http://example.com/');
  });

  test('an empty query and empty query parts leave no trace', () => {
    assert.equal(parseDestination('http://example.com/p?', policy).normalizedUrl, 'http://example.com/p');
    assert.equal(parseDestination('http://example.com/p?&&b=1&&a&', policy).normalizedUrl, 'http://example.com/p?a&b=1');
  });

  test('query parts are ordered by UTF-16 code units, so upper case sorts before lower case', () => {
    assert.equal(parseDestination('http://example.com/?b=1&a=2&B=3&_=4', policy).normalizedUrl,
      'http://example.com/?B=3&_=4&a=2&b=1');
  });

  test('parts with the same key keep their original order, even when their values would sort differently', () => {
    assert.equal(parseDestination('http://example.com/?k=3&k=1&k=2&a', policy).normalizedUrl,
      'http://example.com/?a&k=3&k=1&k=2');
  });

  test('the key ends at the first equals sign, so a value containing "=" does not change the order', () => {
    assert.equal(parseDestination('http://example.com/?b=a=1&a=z=2', policy).normalizedUrl,
      'http://example.com/?a=z=2&b=a=1');
  });

  test('query values are not re-encoded', () => {
    assert.equal(parseDestination('http://example.com/?q=a+b%20c', policy).normalizedUrl, 'http://example.com/?q=a+b%20c');
  });

  test('the original URL keeps the fragment and the canonical form drops it', () => {
    const destination = parseDestination('https://example.com/page#section-2', policy);
    assert.equal(destination.originalUrl, 'https://example.com/page#section-2');
    assert.equal(destination.normalizedUrl, 'https://example.com/page');
  });

  test('client-side routes on the same page are two canonical forms, never merged', () => {
    const settings = parseDestination('https://app.example.com/#/settings', policy).normalizedUrl;
    const billing = parseDestination('https://app.example.com/#/billing', policy).normalizedUrl;
    assert.notEqual(settings, billing);
    assert.equal(billing, 'https://app.example.com/#/billing');
  });

  test('a hash-bang fragment is a client-side route and is kept', () => {
    assert.equal(parseDestination('https://example.com/app/#!/page/2', policy).normalizedUrl, 'https://example.com/app#!/page/2');
    assert.equal(parseDestination('https://example.com/#!', policy).normalizedUrl, 'https://example.com/#!');
  });

  test('path and query are canonicalized in front of a kept route while the route itself is kept as it is', () => {
    const destination = parseDestination('HTTPS://App.Example.COM:443/x/?b=2&a=%7e1#/Users/%7e42/?z=1&a=2', policy);
    assert.equal(destination.normalizedUrl, 'https://app.example.com/x?a=%7E1&b=2#/Users/%7e42/?z=1&a=2');
    assert.equal(destination.originalUrl, 'https://app.example.com/x/?b=2&a=%7e1#/Users/%7e42/?z=1&a=2');
  });

  test('the kept route is WHATWG\'s serialization of it, so characters a URL cannot carry raw are percent-encoded', () => {
    assert.equal(parseDestination('https://app.example.com/#/caf\u00e9/"q"', policy).normalizedUrl,
      'https://app.example.com/#/caf%C3%A9/%22q%22');
  });

  test('a route fragment is only one that starts with "/" or "!": a "#/" later in the fragment is an anchor', () => {
    assert.equal(parseDestination('https://example.com/page#top#/x', policy).normalizedUrl, 'https://example.com/page');
    assert.equal(parseDestination('https://example.com/page#', policy).normalizedUrl, 'https://example.com/page');
  });

  test('an empty route "#/" is still a route, kept as given', () => {
    assert.equal(parseDestination('https://app.example.com/#/', policy).normalizedUrl, 'https://app.example.com/#/');
  });

  test('internationalized host names are converted to punycode', () => {
    assert.equal(parseDestination('https://Bücher.example/ä', policy).normalizedUrl, 'https://xn--bcher-kva.example/%C3%A4');
  });

  test('surrounding whitespace is trimmed before parsing', () => {
    assert.equal(parseDestination('  \t https://example.com/x \n', policy).originalUrl, 'https://example.com/x');
  });

  test('canonicalize can be called on a URL object directly', () => {
    assert.equal(canonicalize(new URL('http://EXAMPLE.com:80/a/b/../c/?y=%3a&x#f')), 'http://example.com/a/c?x&y=%3A');
  });
});

describe('rejected destinations', () => {
  test('a value that is not a string is invalid', () => {
    for (const raw of [undefined, null, 42, {}, ['http://example.com'], new URL('http://example.com')]) {
      assertRejected(raw, 'url_invalid');
    }
  });

  test('text that is not an absolute URL is invalid', () => {
    for (const raw of ['', '   ', 'example.com', '/relative/path', 'http://', 'http:///', 'http://[::1', 'http://999.1.1.1/',
      'https://exa%mple.com/', 'http://example.com:99999/', 'http://./', 'HTTP:..']) {
      assertRejected(raw, 'url_invalid');
    }
  });

  test('schemes other than http and https are refused', () => {
    for (const raw of [
      'javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'file:///etc/passwd',
      'ftp://example.com/file', 'vbscript:msgbox(1)', 'gopher://example.com/', 'ws://example.com/', 'mailto:a@b.com',
    ]) {
      assertRejected(raw, 'url_scheme_not_allowed');
    }
  });

  test('the refusal message for a scheme is a clear sentence', () => {
    assert.throws(() => parseDestination('ftp://example.com', policy), { message: 'Only http and https URLs can be shortened.' });
  });

  test('a scheme broken up by a tab or newline is refused before WHATWG can glue it back together', () => {
    assert.equal(new URL('java\nscript:alert(1)').protocol, 'javascript:', 'premise: WHATWG strips the newline');
    assertRejected('java\tscript:alert(1)', 'url_whitespace_not_allowed');
    assertRejected('java\nscript:alert(1)', 'url_whitespace_not_allowed');
    assertRejected('java\r\nscript:alert(1)', 'url_whitespace_not_allowed');
  });

  test('user names and passwords are refused', () => {
    assertRejected('https://a@b.com', 'url_userinfo_not_allowed');
    assertRejected('https://user:pass@example.com/', 'url_userinfo_not_allowed');
    assertRejected('https://:pass@example.com/', 'url_userinfo_not_allowed');
    assertRejected('http://allowed@127.0.0.1', 'url_userinfo_not_allowed');
    assertRejected('http://allowed@127.0.0.1', 'url_userinfo_not_allowed', permissive);
  });

  test('an empty userinfo is dropped by WHATWG and the URL is accepted without it', () => {
    assert.equal(parseDestination('https://@example.com/', policy).originalUrl, 'https://example.com/');
  });

  test('a fragment that looks like userinfo does not hide a private host', () => {
    assertRejected('http://127.0.0.1#@allowed.example', 'url_private_address_not_allowed');
  });

  test('a backslash ends the authority, so the host is the part before it', () => {
    assert.equal(parseDestination('http://allowed.example\\@127.0.0.1', policy).originalUrl, 'http://allowed.example/@127.0.0.1');
  });

  test('whitespace and control characters inside the URL are refused', () => {
    const inner = [' ', '\t', '\r', '\n', '\r\n', '\u0000', '\u001F', '\u007F', '\u0085', '\u009F', '\u00A0',
      '\u2028', '\u2029', '\u3000', '\uFEFF', '\u200A'];
    for (const character of inner) {
      assertRejected(`https://example.com/a${character}b`, 'url_whitespace_not_allowed');
      assertRejected(`https://exa${character}mple.com/`, 'url_whitespace_not_allowed');
    }
  });

  test('the whitespace message is a clear sentence', () => {
    assert.throws(() => parseDestination('https://example.com/a b', policy),
      { code: 'url_whitespace_not_allowed', message: 'The URL must not contain spaces, line breaks or other control characters.' });
  });

  test('an encoded CR LF is allowed because it stays percent-encoded in the stored URL', () => {
    const destination = parseDestination('https://example.com/a%0d%0aSet-Cookie:x=1?q=%0D%0A', policy);
    assert.equal(destination.originalUrl, 'https://example.com/a%0d%0aSet-Cookie:x=1?q=%0D%0A');
    assert.doesNotMatch(destination.originalUrl, /[\r\n]/);
    assert.doesNotMatch(destination.normalizedUrl, /[\r\n]/);
  });

  test('this service\'s own short domain is refused, whatever its case or trailing dot', () => {
    for (const raw of ['https://lnk.example/abc', 'HTTPS://LNK.EXAMPLE/abc', 'http://lnk.example./abc',
      'http://lnk.example:8080/abc', 'https://short.example/x', 'https://SHORT.example../x']) {
      assertRejected(raw, 'url_loop_not_allowed');
    }
  });

  test('a subdomain of the short domain is not a loop', () => {
    assert.equal(parseDestination('https://www.lnk.example/', policy).normalizedUrl, 'https://www.lnk.example/');
  });
});

describe('private and internal addresses', () => {
  const privateLiterals = [
    'http://127.0.0.1/', 'http://127.127.127.127/', 'http://0x7f000001/', 'http://127.1/', 'http://2130706433/',
    'http://017700000001/', 'http://0177.0.0.1/', 'http://１２７.０.０.１/', 'http://127.0.0.1./', 'http://127.0.0.1../',
    'http://10.0.0.1/', 'http://172.16.0.1/', 'http://172.31.255.255/', 'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/', 'http://0.0.0.0/', 'http://0/', 'http://100.64.0.1/',
    'http://198.18.0.1/', 'http://224.0.0.1/', 'http://255.255.255.255/',
    'http://[::1]/', 'http://[::]/', 'http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[::127.0.0.1]/',
    'http://[fc00::1]/', 'http://[fd12:3456::1]/', 'http://[fe80::1]/', 'http://[64:ff9b::7f00:1]/',
    'http://[::ffff:169.254.169.254]/', 'http://127.0.0.1:22/', 'http://127.0.0.1:6379/', 'http://[::1]:5432/',
    'http://localhost/', 'http://LOCALHOST./', 'http://api.localhost/',
  ];
  for (const raw of privateLiterals) {
    test(`${raw} is refused as an internal address`, () => {
      assertRejected(raw, 'url_private_address_not_allowed');
    });
  }

  test('internal addresses are accepted when private destinations are allowed', () => {
    for (const raw of privateLiterals) {
      assert.equal(parseDestination(raw, permissive).originalUrl, new URL(raw).href);
    }
  });

  test('public IP literals are accepted', () => {
    assert.equal(parseDestination('http://8.8.8.8/dns', policy).normalizedUrl, 'http://8.8.8.8/dns');
    assert.equal(parseDestination('https://[2606:4700::1111]/', policy).normalizedUrl, 'https://[2606:4700::1111]/');
    assert.equal(parseDestination('https://[::ffff:8.8.8.8]/', policy).normalizedUrl, 'https://[::ffff:808:808]/');
    assert.equal(parseDestination('http://0x08080808/', policy).normalizedUrl, 'http://8.8.8.8/');
  });

  test('host names that merely contain private-looking numbers are not IP literals', () => {
    assert.equal(parseDestination('https://127.0.0.1.example.com/', policy).normalizedUrl, 'https://127.0.0.1.example.com/');
    assert.equal(parseDestination('https://localhost.example.com/', policy).normalizedUrl, 'https://localhost.example.com/');
  });
});

describe('domain blocklist', () => {
  test('a blocked domain and all its subdomains are refused, with or without trailing dots', () => {
    for (const raw of ['https://evil.com/', 'https://EVIL.com/x', 'https://a.evil.com/', 'https://a.b.evil.com/',
      'https://evil.com./', 'https://a.evil.com../', 'https://bad.example.org/', 'https://x.bad.example.org:8080/']) {
      assertRejected(raw, 'url_domain_blocked');
    }
  });

  test('a blocked domain under thousands of labels is still found', () => {
    assertRejected(`https://${'a.'.repeat(1500)}evil.com/`, 'url_domain_blocked');
    assertRejected(`https://${'.'.repeat(3000)}evil.com/`, 'url_domain_blocked');
  });

  test('domains that only resemble a blocked one are accepted', () => {
    for (const raw of ['https://notevil.com/', 'https://evil.com.example/', 'https://example.org/', 'https://good.example.org/']) {
      assert.doesNotThrow(() => parseDestination(raw, policy), raw);
    }
  });

  test('the blocklist applies even when private destinations are allowed', () => {
    assertRejected('https://a.evil.com/', 'url_domain_blocked', permissive);
  });

  test('parsing a blocklist skips comments and blank lines, lower-cases and drops trailing dots', () => {
    const text = '# malware\n\nEvil.COM.\r\n  spam.example  # inline note\n*.wild.example\n.lead.example\nbücher.example\n   \n';
    assert.deepEqual([...parseBlocklist(text)].sort(),
      ['evil.com', 'lead.example', 'spam.example', 'wild.example', 'xn--bcher-kva.example']);
  });

  test('a blocklist in hosts-file form contributes the domain of each line', () => {
    assert.deepEqual([...parseBlocklist('127.0.0.1 localhost\n0.0.0.0\tmalware.example # seen 2024\n')].sort(),
      ['localhost', 'malware.example']);
  });

  test('an internationalized blocklist entry blocks the punycode host WHATWG produces', () => {
    const withIdn: UrlPolicy = { ...policy, blockedDomains: parseBlocklist('bücher.example') };
    assertRejected('https://shop.BÜCHER.example/', 'url_domain_blocked', withIdn);
  });

  test('a blocklisted IP literal is refused even when private destinations are allowed', () => {
    const withIp: UrlPolicy = { ...permissive, blockedDomains: parseBlocklist('203.0.113.7\n2001:db8::1') };
    assertRejected('http://203.0.113.7/', 'url_domain_blocked', withIp);
    assertRejected('http://[2001:db8::1]/', 'url_domain_blocked', withIp);
    assert.doesNotThrow(() => parseDestination('http://203.0.113.8/', withIp));
  });
});

describe('length limits', () => {
  const small: UrlPolicy = { ...policy, maxLength: 40 };
  const urlOfLength = (length: number) => {
    const prefix = 'https://example.com/';
    return prefix + 'a'.repeat(length - prefix.length);
  };

  test('a URL exactly at the limit is accepted and one character more is refused', () => {
    assert.equal(parseDestination(urlOfLength(40), small).originalUrl.length, 40);
    assertRejected(urlOfLength(41), 'url_too_long', small);
  });

  test('the default limit of 4096 is honoured at the boundary', () => {
    assert.equal(parseDestination(urlOfLength(4096), policy).originalUrl.length, 4096);
    assertRejected(urlOfLength(4097), 'url_too_long');
  });

  test('surrounding whitespace does not count towards the limit', () => {
    assert.doesNotThrow(() => parseDestination(`   ${urlOfLength(40)}\n\n`, small));
  });

  test('a URL that grows past the limit when WHATWG percent-encodes it is refused', () => {
    const raw = 'https://example.com/' + 'ä'.repeat(10);
    assert.equal(raw.length, 30);
    assertRejected(raw, 'url_too_long', small);
  });

  test('the too-long message names the limit', () => {
    assert.throws(() => parseDestination(urlOfLength(41), small),
      { code: 'url_too_long', message: 'The URL is too long: at most 40 characters are allowed.' });
  });

  test('a one-megabyte URL is refused quickly as too long', () => {
    const huge = urlOfLength(1024 * 1024);
    const started = performance.now();
    assertRejected(huge, 'url_too_long');
    assertRejected(`${huge.slice(0, 500_000)} \n${huge.slice(500_000)}`, 'url_too_long');
    assert.ok(performance.now() - started < 1000, 'rejecting 1 MB took too long');
  });
});

describe('properties', () => {
  const controlOrSpace = fc.constantFrom(' ', '\t', '\n', '\r', '\u0000', '\u0008', '\u001B', '\u007F', '\u0085',
    '\u00A0', '\u2028', '\u2029', '\u3000', '\uFEFF');
  const webUrl = fc.webUrl({
    withQueryParameters: true,
    withFragments: true,
    authoritySettings: { withIPv4: true, withIPv6: true, withIPv4Extended: true, withPort: true, withUserInfo: true },
  });
  const ipv4Host = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(3)).map(([a, b, c, d, form]) => {
    const value = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
    return [`${a}.${b}.${c}.${d}`, String(value), `0x${value.toString(16)}`, `0${value.toString(8)}`][form] ?? '';
  });
  const fullWidth = (text: string) => text.replace(/[0-9]/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
  const insertAt = (text: string, index: number, insert: string) => {
    const at = index % (text.length + 1);
    return text.slice(0, at) + insert + text.slice(at);
  };
  const mixCase = (text: string, seed: number) =>
    [...text].map((character, index) => ((seed >> (index % 30)) & 1 ? character.toUpperCase() : character)).join('');

  const routeFragment = fc.tuple(fc.constantFrom('#/', '#!', '#!/'), fc.webPath(), fc.webQueryParameters(), fc.webFragments())
    .map(([start, path, query, rest]) => `${start}${path.replace(/^\//, '')}${query === '' ? '' : `?${query}`}${rest === '' ? '' : `#${rest}`}`);
  const withRoute = fc.tuple(webUrl, routeFragment).map(([url, route]) => url.replace(/#.*$/, '') + route);

  const candidate = fc.oneof(
    webUrl,
    withRoute,
    fc.tuple(webUrl, fc.nat()).map(([url, seed]) => mixCase(url.slice(0, url.indexOf(':')), seed) + url.slice(url.indexOf(':'))),
    fc.tuple(webUrl, fc.nat(), controlOrSpace).map(([url, index, character]) => insertAt(url, index, character)),
    fc.tuple(webUrl, fc.nat(), fc.nat(255), fc.boolean()).map(([url, index, byte, lower]) => {
      const hex = byte.toString(16).padStart(2, '0');
      return insertAt(url, url.indexOf('/', 8) === -1 ? url.length : url.indexOf('/', 8) + 1 + (index % 5), `%${lower ? hex : hex.toUpperCase()}`);
    }),
    fc.tuple(fc.constantFrom('http', 'HTTP', 'https', 'HtTpS'), ipv4Host, fc.boolean(), webUrl).map(([scheme, host, wide, url]) =>
      `${scheme}://${wide ? fullWidth(host) : host}${new URL(url).pathname}${new URL(url).search}`),
    fc.tuple(fc.constantFrom('::1', '::', '::ffff:127.0.0.1', '64:ff9b::a00:1', 'fe80::1', 'fc00::1', '2606:4700::1111', '::ffff:8.8.8.8'),
      fc.webPath()).map(([host, path]) => `http://[${host}]${path}`),
    fc.tuple(fc.webSegment(), fc.constantFrom('evil.com', 'evil.com.', 'lnk.example', 'LNK.Example.', 'example.net')).map(
      ([label, domain]) => `https://${label === '' ? '' : `${label}.`}${domain}/`),
    fc.tuple(fc.constantFrom('javascript:', 'data:', 'file:', 'ftp:', 'java\tscript:', 'HTTP:', 'https:'), fc.string())
      .map(([scheme, rest]) => scheme + rest),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: 'grapheme', maxLength: 300 }).map((text) => `https://${text}`),
  );

  test('parseDestination never throws anything but a ValidationError', () => {
    fc.assert(fc.property(fc.oneof(candidate, fc.anything()), (raw) => {
      try {
        parseDestination(raw, policy);
      } catch (error) {
        return error instanceof ValidationError && error.status === 400 && error.message.length > 0;
      }
      return true;
    }), { numRuns: 4000 });
  });

  test('very long random strings are refused as too long without another kind of error', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', minLength: 4097, maxLength: 100_000 }), (raw) => {
      fc.pre(raw.trim().length > 4096);
      return rejectionCode(raw) === 'url_too_long';
    }), { numRuns: 200 });
  });

  test('any URL with whitespace or a control character inside is refused', () => {
    fc.assert(fc.property(webUrl, fc.nat(), controlOrSpace, (url, index, character) => {
      const raw = insertAt(url, 1 + (index % (url.length - 1)), character);
      return rejectionCode(raw) === 'url_whitespace_not_allowed';
    }), { numRuns: 2000 });
  });

  test('accepted URLs have a canonical form that is stable, re-parses to itself and is safe to send', () => {
    let accepted = 0;
    fc.assert(fc.property(candidate, (raw) => {
      let normalizedUrl: string;
      let originalUrl: string;
      try {
        ({ normalizedUrl, originalUrl } = parseDestination(raw, policy));
      } catch {
        return true;
      }
      accepted += 1;
      const reparsed = new URL(normalizedUrl);
      const hostname = reparsed.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
      const isIpLiteral = reparsed.hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
      return parseDestination(normalizedUrl, policy).normalizedUrl === normalizedUrl
        && reparsed.href === normalizedUrl
        && /^[\x21-\x7E]+$/.test(normalizedUrl)
        && /^[\x21-\x7E]+$/.test(originalUrl)
        && originalUrl.length <= policy.maxLength
        && (reparsed.protocol === 'http:' || reparsed.protocol === 'https:')
        && reparsed.username === '' && reparsed.password === ''
        && (reparsed.hash === '' || reparsed.hash.startsWith('#/') || reparsed.hash.startsWith('#!'))
        && canonicalize(reparsed) === normalizedUrl
        && !(isIpLiteral && isForbiddenAddress(hostname));
    }), { numRuns: 6000 });
    assert.ok(accepted > 1000, `too few accepted inputs (${accepted}) for the property to mean much`);
  });

  test('a canonical form keeps exactly the route fragment of the original URL, and no other fragment', () => {
    let routes = 0;
    fc.assert(fc.property(fc.oneof(webUrl, withRoute), (raw) => {
      let destination;
      try {
        destination = parseDestination(raw, permissive);
      } catch {
        return true;
      }
      const hash = new URL(destination.originalUrl).hash;
      const isRoute = hash.startsWith('#/') || hash.startsWith('#!');
      if (isRoute) routes += 1;
      return isRoute
        ? destination.normalizedUrl.endsWith(hash) && new URL(destination.normalizedUrl).hash === hash
        : new URL(destination.normalizedUrl).hash === '';
    }), { numRuns: 3000 });
    assert.ok(routes > 250, `too few route fragments (${routes}) for the property to mean much`);
  });

  test('two URLs that differ only in their client-side route never share a canonical form', () => {
    fc.assert(fc.property(webUrl, routeFragment, routeFragment, (url, first, second) => {
      const base = url.replace(/#.*$/, '').replace(/^([a-z]+:\/\/)[^@/]*@/, '$1');
      let a;
      let b;
      try {
        a = parseDestination(base + first, permissive);
        b = parseDestination(base + second, permissive);
      } catch {
        return true;
      }
      return (new URL(a.originalUrl).hash === new URL(b.originalUrl).hash) === (a.normalizedUrl === b.normalizedUrl);
    }), { numRuns: 2000 });
  });

  test('the original URL parses to the same canonical form as the raw input', () => {
    fc.assert(fc.property(fc.oneof(webUrl, withRoute), (raw) => {
      const cleaned = raw.replace(/^([a-z]+:\/\/)[^@/]*@/, '$1');
      let destination;
      try {
        destination = parseDestination(cleaned, policy);
      } catch {
        return true;
      }
      return parseDestination(destination.originalUrl, policy).normalizedUrl === destination.normalizedUrl;
    }), { numRuns: 3000 });
  });
});
