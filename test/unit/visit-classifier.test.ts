import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { classifyVisit } from '../../src/visits/visit-classifier.js';
import { PREVIEW_AGENTS } from '../../src/visits/preview-agents.js';
import { BOT_AGENTS, HUMAN_AGENTS, PREVIEW_USER_AGENTS } from '../fixtures/user-agents.js';

const DEVICES = new Set(['desktop', 'mobile', 'tablet', 'bot', 'other', null]);

describe('visitor class from real User-Agents', () => {
  for (const [name, userAgent] of Object.entries(HUMAN_AGENTS)) {
    test(`${name} is a human`, () => assert.equal(classifyVisit(userAgent, undefined).visitorClass, 'human'));
  }
  for (const [name, userAgent] of Object.entries(BOT_AGENTS)) {
    test(`${name} is a bot`, () => assert.equal(classifyVisit(userAgent, undefined).visitorClass, 'bot'));
  }
  for (const [name, userAgent] of Object.entries(PREVIEW_USER_AGENTS)) {
    test(`${name} is a link preview, not a click and not a crawler`, () => {
      assert.equal(classifyVisit(userAgent, undefined).visitorClass, 'preview');
    });
  }

  test('every listed preview agent has a User-Agent in the corpus', () => {
    const corpus = Object.values(PREVIEW_USER_AGENTS).join('\n').toLowerCase();
    for (const agent of PREVIEW_AGENTS) assert.ok(corpus.includes(agent.token.toLowerCase()), agent.token);
  });

  test('a missing or blank User-Agent is a bot, since every browser sends one', () => {
    assert.equal(classifyVisit(undefined, undefined).visitorClass, 'bot');
    assert.equal(classifyVisit('  ', undefined).visitorClass, 'bot');
  });
});

describe('browser, OS and device', () => {
  const cases: Array<[keyof typeof HUMAN_AGENTS, string, string, string]> = [
    ['chromeWindows', 'Chrome', 'Windows', 'desktop'],
    ['safariMac', 'Safari', 'Mac OS', 'desktop'],
    ['edgeWindows', 'Edge', 'Windows', 'desktop'],
    ['safariIphone', 'Mobile Safari', 'iOS', 'mobile'],
    ['samsungInternet', 'Samsung Internet', 'Android', 'mobile'],
    ['safariIpad', 'Mobile Safari', 'iOS', 'tablet'],
    ['chromeGalaxyTab', 'Chrome', 'Android', 'tablet'],
    ['samsungSmartTv', 'Safari', 'Tizen', 'other'],
  ];
  for (const [name, browser, os, device] of cases) {
    test(`${name} is ${browser} on ${os}, ${device}`, () => {
      const facts = classifyVisit(HUMAN_AGENTS[name], undefined);
      assert.deepEqual([facts.browser, facts.os, facts.device], [browser, os, device]);
    });
  }

  test('a crawler dressed as Chrome on Android keeps no browser or OS and is device bot', () => {
    const facts = classifyVisit(BOT_AGENTS.googlebotSmartphone, undefined);
    assert.deepEqual([facts.browser, facts.os, facts.device], [null, null, 'bot']);
  });

  test('a preview agent dressed as Safari is device bot with no browser', () => {
    const facts = classifyVisit(PREVIEW_USER_AGENTS.appleMessages, undefined);
    assert.deepEqual([facts.browser, facts.os, facts.device], [null, null, 'bot']);
  });

  test('an unrecognised agent that isbot lets through has unknown browser, OS and device', () => {
    const facts = classifyVisit('Mozilla/5.0 (Foo) Gecko/20100101', undefined);
    assert.deepEqual([facts.visitorClass, facts.browser, facts.os, facts.device], ['human', null, null, null]);
  });

  test('the same User-Agent gives the same facts each time (the memo returns what parsing did)', () => {
    const first = classifyVisit(HUMAN_AGENTS.firefoxLinux, 'https://a.example/');
    const second = classifyVisit(HUMAN_AGENTS.firefoxLinux, 'https://b.example/');
    assert.deepEqual({ ...first, referrerHost: null }, { ...second, referrerHost: null });
    assert.deepEqual([first.referrerHost, second.referrerHost], ['a.example', 'b.example']);
  });
});

describe('referrer host', () => {
  const human = HUMAN_AGENTS.chromeWindows;
  const cases: Array<[string | undefined, string | null]> = [
    ['https://news.example.com/story/42?utm_source=x&ref=y#comments', 'news.example.com'],
    ['HTTP://WWW.Example.COM/Path', 'www.example.com'],
    ['https://user:secret@example.com:8443/a', 'example.com'],
    ['https://example.com./', 'example.com'],
    ['http://[2001:DB8::1]:8080/x', '[2001:db8::1]'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
    ['  https://padded.example/  ', 'padded.example'],
    ['android-app://com.google.android.gm/', null],
    ['ftp://files.example.com/', null],
    ['javascript:alert(1)', null],
    ['not a url', null],
    ['/relative/path', null],
    ['https://', null],
    ['http://./', null],
    [`https://${'label.'.repeat(60)}example/`, null],
    ['', null],
    [undefined, null],
  ];
  for (const [referer, host] of cases) {
    test(`${JSON.stringify(referer)?.slice(0, 60)} gives ${JSON.stringify(host)}`, () => {
      assert.equal(classifyVisit(human, referer).referrerHost, host);
    });
  }
});

describe('any input', () => {
  const header = fc.option(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.webUrl()), { nil: undefined });

  test('gives valid visit facts and never throws', () => {
    fc.assert(fc.property(header, header, (userAgent, referer) => {
      const facts = classifyVisit(userAgent, referer);
      assert.ok(['human', 'bot', 'preview'].includes(facts.visitorClass));
      assert.ok(DEVICES.has(facts.device), `device ${facts.device}`);
      for (const name of [facts.browser, facts.os]) assert.ok(name === null || name !== '');
      if (facts.visitorClass !== 'human') assert.deepEqual([facts.browser, facts.os, facts.device], [null, null, 'bot']);
      const host = facts.referrerHost;
      if (host !== null) {
        assert.ok(host.length > 0 && host.length <= 253, host);
        assert.equal(host, host.toLowerCase());
        assert.doesNotMatch(host, /[/?#@\s]|\.$/);
      }
    }), { numRuns: 2000 });
  });
});
