import { isbot } from 'isbot';
import { LRUCache } from 'lru-cache';
import { UAParser } from 'ua-parser-js';
import type { VisitFacts, VisitorClass } from '../core/visit-ports.js';
import { headerPrefix, MAX_USER_AGENT, refererPrefix } from './header-prefix.js';
import { isPreviewAgent } from './preview-agents.js';

/**
 * What a visit's User-Agent and Referer headers tell, and nothing more: the raw User-Agent is not
 * kept. Runs in the flusher, off the redirect path.
 *
 * Class: `preview` for a link-preview agent (preview-agents.ts), checked first because isbot counts
 * those as bots too; else `bot` when isbot says so or the User-Agent is missing or blank (every
 * browser sends one); else `human`.
 *
 * Device vocabulary: `desktop`, `mobile`, `tablet`, `bot`, `other`, or null when unknown.
 * ua-parser-js names a device type only for handheld and living-room devices, so a human whose
 * browser or OS it recognises but whose device it does not is `desktop`; its console, smarttv,
 * wearable, embedded and xr types are `other`. Every `bot` and `preview` visit is device `bot`, with
 * browser and OS null: what a crawler claims to run is a disguise, not a visitor's browser.
 */
export function classifyVisit(userAgent: string | undefined, referer: string | undefined): VisitFacts {
  return { ...agentFactsOf(userAgent ?? ''), referrerHost: referrerHostOf(referer === undefined ? undefined : refererPrefix(referer)) };
}

/**
 * Only the class of a User-Agent: what the click limit asks on the redirect path, for limited links
 * only (a bot or a link-preview agent never takes a click). Cached like every classification.
 */
export function visitorClassOf(userAgent: string | undefined): VisitorClass {
  return agentFactsOf(userAgent ?? '').visitorClass;
}

type AgentFacts = Omit<VisitFacts, 'referrerHost'>;

// The same few hundred User-Agents make most traffic, and classifying one costs about 35 µs (isbot
// and ua-parser-js, measured on the corpus of test/fixtures/user-agents.ts); a hit costs a map lookup.
// 1,000 entries hold the common ones in well under a megabyte. Only the first MAX_USER_AGENT
// characters are read (a real User-Agent is a few hundred; the parsers' regular expressions cost
// time in proportion to the length), so every agent can be cached and none costs more than one of
// that length (ADR 0013, "Classification off the redirect's way").
const CACHE_ENTRIES = 1_000;
const MAX_HOSTNAME_LENGTH = 253;

const agentCache = new LRUCache<string, AgentFacts>({ max: CACHE_ENTRIES });

function agentFactsOf(userAgent: string): AgentFacts {
  const read = headerPrefix(userAgent, MAX_USER_AGENT);
  const cached = agentCache.get(read);
  if (cached !== undefined) return cached;
  const facts = Object.freeze(parseAgent(read));
  agentCache.set(read, facts);
  return facts;
}

function parseAgent(userAgent: string): AgentFacts {
  const visitorClass = classOf(userAgent);
  if (visitorClass !== 'human') return { visitorClass, browser: null, os: null, device: 'bot' };
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const browserName = browser.name ?? null;
  const osName = os.name ?? null;
  return { visitorClass, browser: browserName, os: osName, device: deviceOf(device.type, browserName ?? osName) };
}

function classOf(userAgent: string): VisitorClass {
  if (isPreviewAgent(userAgent)) return 'preview';
  if (userAgent.trim() === '' || isbot(userAgent)) return 'bot';
  return 'human';
}

function deviceOf(type: string | undefined, recognised: string | null): string | null {
  if (type === 'mobile' || type === 'tablet') return type;
  if (type !== undefined) return 'other';
  return recognised === null ? null : 'desktop';
}

/**
 * The host of an http(s) Referer, lower-case, without port, user info, path or query, and without a
 * trailing dot; null when absent, unparseable, of another scheme, or longer than a DNS name can be.
 * The port is dropped because the report counts referring sites, and `example.com:8443` is the same
 * site as `example.com`.
 */
function referrerHostOf(referer: string | undefined): string | null {
  if (referer === undefined) return null;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.replace(/\.$/, '');
  return host === '' || host.length > MAX_HOSTNAME_LENGTH ? null : host;
}
