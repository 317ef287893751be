import http from 'node:http';
import https from 'node:https';
import { DestinationRefusedError, pinnedLookup, vetHost, type AddressPolicy, type ResolvedAddress } from './destination-address.js';

/** The bounds on one check (ADR 0015). */
export const CHECK_TIMEOUT_MS = 5_000;
export const MAX_REDIRECTS = 3;
export const MAX_BODY_BYTES = 32 * 1024;

const USER_AGENT = 'Linkforge-HealthCheck/0.1';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface ProbeOptions extends AddressPolicy {
  /** For the whole check, every hop and DNS included. */
  readonly timeoutMs?: number;
  readonly maxRedirects?: number;
  readonly maxBodyBytes?: number;
  /** Shutdown: ends the check at once. */
  readonly signal?: AbortSignal;
  /** The first hop's address, already vetted by `locateDestination`: connected to without asking DNS again. */
  readonly firstHop?: ResolvedAddress;
}

export type ProbeOutcome = 'answered' | 'too_many_redirects' | 'refused' | 'unreachable' | 'timeout' | 'aborted';

export interface ProbeResult {
  /** The last HTTP status received; 0 when the destination was refused, unreachable or silent. */
  readonly status: number;
  readonly outcome: ProbeOutcome;
  readonly redirects: number;
  /** Body bytes taken over all hops: at most `maxBodyBytes`. */
  readonly bodyBytes: number;
}

/** Where a check will connect first (the key of its pacing), or why it cannot be made. */
export type Located = { readonly address: ResolvedAddress } | { readonly failed: ProbeResult };

interface Answer {
  readonly status: number;
  readonly location: string | undefined;
  readonly bodyBytes: number;
}

class CheckTimeout extends Error {}

/** A check's own signal: aborted once its time is up (CheckTimeout) or when `options.signal` is; `end` lets both go. */
function checkDeadline(options: ProbeOptions): { readonly signal: AbortSignal; end(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new CheckTimeout()), options.timeoutMs ?? CHECK_TIMEOUT_MS);
  const stop = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    end() {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
    },
  };
}

/**
 * Asks a destination for its status as ADR 0015 says: HEAD (GET when HEAD gets 405),
 * redirects followed by hand, each hop's host vetted again and connected to by the vetted address.
 * node:http is used directly rather than fetch/undici: its `lookup` hook pins the address per
 * request with no extra dependency, and `agent: false` keeps any pooled socket, opened for another
 * vetted address, out of reach. Never throws.
 */
export async function probeDestination(rawUrl: string, options: ProbeOptions): Promise<ProbeResult> {
  const deadline = checkDeadline(options);
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let redirects = 0;
  let bodyBytes = 0;
  try {
    let url = new URL(rawUrl);
    let pinned = options.firstHop;
    for (;;) {
      const answer = await askFollowingHead(url, pinned, options, deadline.signal);
      pinned = undefined;
      bodyBytes += answer.bodyBytes;
      const next = REDIRECTS.has(answer.status) ? nextHop(answer.location, url) : undefined;
      if (next === undefined) return { status: answer.status, outcome: 'answered', redirects, bodyBytes };
      if (redirects === maxRedirects) return { status: answer.status, outcome: 'too_many_redirects', redirects, bodyBytes };
      redirects += 1;
      url = next;
    }
  } catch (error) {
    return { status: 0, outcome: outcomeOf(error, deadline.signal), redirects, bodyBytes };
  } finally {
    deadline.end();
  }
}

/**
 * Resolves and vets the URL's host within the check's time limit, so the checker can pace checks
 * by the address they will connect to (a name's own spelling says nothing of where it leads).
 */
export async function locateDestination(rawUrl: string, options: ProbeOptions): Promise<Located> {
  const deadline = checkDeadline(options);
  try {
    const url = new URL(rawUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DestinationRefusedError(url.hostname, url.protocol);
    return { address: await untilAborted(vetHost(url.hostname, options), deadline.signal) };
  } catch (error) {
    return { failed: { status: 0, outcome: outcomeOf(error, deadline.signal), redirects: 0, bodyBytes: 0 } };
  } finally {
    deadline.end();
  }
}

function outcomeOf(error: unknown, signal: AbortSignal): ProbeOutcome {
  if (error instanceof DestinationRefusedError) return 'refused';
  if (signal.aborted) return signal.reason instanceof CheckTimeout ? 'timeout' : 'aborted';
  return 'unreachable';
}

/** A Location that is no http(s) URL ends the check with the redirect's own status. */
function nextHop(location: string | undefined, base: URL): URL | undefined {
  if (location === undefined) return undefined;
  try {
    const url = new URL(location, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

async function askFollowingHead(url: URL, pinned: ResolvedAddress | undefined, options: ProbeOptions, signal: AbortSignal): Promise<Answer> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DestinationRefusedError(url.hostname, url.protocol);
  const target = pinned ?? await untilAborted(vetHost(url.hostname, options), signal);
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const head = await ask(url, 'HEAD', target, maxBodyBytes, signal);
  if (head.status !== 405) return head;
  const get = await ask(url, 'GET', target, maxBodyBytes - head.bodyBytes, signal);
  return { ...get, bodyBytes: head.bodyBytes + get.bodyBytes };
}

/** dns.lookup cannot be cancelled; the check stops waiting for it instead. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * One request on a socket of its own. The status is known at the headers; up to `maxBodyBytes` of
 * body are taken so that small answers end cleanly, then the socket is destroyed. A socket read can
 * hand over 64 KiB at once: only the part under the cap is taken, and nothing is read after it.
 * A body cut short (the time is up, the server resets) keeps the status it came with.
 */
function ask(url: URL, method: 'HEAD' | 'GET', target: ResolvedAddress, maxBodyBytes: number, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const request = (url.protocol === 'https:' ? https : http).request({
      protocol: url.protocol,
      host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method,
      headers: { 'user-agent': USER_AGENT, accept: '*/*' },
      agent: false,
      lookup: pinnedLookup(target),
    });
    let answer: { status: number; location: string | undefined } | undefined;
    let bodyBytes = 0;
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      request.destroy();
      if (answer) resolve({ ...answer, bodyBytes });
      else reject(error);
    };
    const onAbort = () => settle(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', settle);
    request.once('response', (response) => {
      answer = { status: response.statusCode ?? 0, location: response.headers.location };
      response.on('data', (chunk: Buffer) => {
        if (settled) return;
        bodyBytes += Math.min(chunk.length, maxBodyBytes - bodyBytes);
        if (bodyBytes >= maxBodyBytes) settle();
      });
      response.once('end', () => settle());
      response.once('close', () => settle());
      response.on('error', () => settle());
    });
    request.end();
  });
}
