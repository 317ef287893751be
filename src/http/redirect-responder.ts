import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServedDomain } from '../core/domain-ports.js';
import type { RedirectTarget } from '../core/link.js';
import type { RedirectMetrics } from '../core/metrics-ports.js';
import type { Clock } from '../core/ports.js';
import { decideRedirect } from '../core/redirect-decision.js';
import { isReservedWord } from '../core/short-code.js';
import type { LinkResolver } from '../links/resolve-link.js';
import type { RecordVisit } from '../visits/visit-buffer.js';
import type { RedirectRateLimit } from './redirect-rate-limit.js';
import { hostHeaderOf } from './request-target.js';
import { answerExtras, extrasVisitOf, type ExtrasOutcome, type ExtrasStep, type ExtrasTarget, type ExtrasVisit, type NotRedirected } from './link-extras.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../logging/request-id.js';
import { namesJson, prefersHtml } from './accept.js';
import {
  disabledLinkResponses, FAILURE_PAGE_HEADERS, sendElsewhere, FAILURE_RESPONSES, HTML_CONTENT_TYPE, PROBLEM_CONTENT_TYPE, type FailureResponse, type RedirectFailure,
} from './redirect-pages.js';

export interface RedirectResponderOptions {
  readonly resolver: LinkResolver;
  /** The domain answered for BASE_URL's host and any host no one registered. */
  readonly domain: string;
  /** The verified custom domains, by the `Host` header as sent (ADR 0036); absent: one domain only. */
  readonly hosts?: { readonly size: number; find(host: string | undefined): ServedDomain | undefined };
  /** STRICT_HOSTS: a `Host` that is neither this one (BASE_URL's, with its port) nor a custom domain's gets 404. */
  readonly strictHost?: string;
  readonly clock: Clock;
  readonly permanentStatus: number;
  readonly temporaryStatus: number;
  readonly maxAgeSeconds: number;
  readonly retryAfterSeconds?: number;
  /** RATE_LIMIT_REDIRECTS; absent when off, and then the responder counts nothing. */
  readonly rateLimit?: RedirectRateLimit;
  /** A lookup that failed (the answer is 503), with the request id the answer carries. */
  readonly onError?: (error: unknown, requestId: string) => void;
  /** Appends an answered redirect to the analytics buffer; absent when analytics are off. */
  readonly recordVisit?: RecordVisit;
  /** The client address a visit is recorded with (its country is looked up later); absent: none is. */
  readonly visitorAddress?: (req: IncomingMessage) => string | undefined;
  /** Counts every answer by status, with its latency; absent when metrics are off. */
  readonly metrics?: RedirectMetrics;
  /** One line per answer, given only when the log level is `debug` or finer: at info the responder logs nothing. */
  readonly debugLog?: (fields: { reqId: string; code: string; status: number; ms: number }, message: string) => void;
  /** The failure answers, built once at start-up (styled pages, the operator's redirect URLs); plain ones by default. */
  readonly failures?: Record<RedirectFailure, FailureResponse>;
  /** The answer for a link its operator disabled, with its reason; a plain page by default. */
  readonly disabledResponse?: (reason: string) => FailureResponse;
  /** What answers a link with options, a password or a click limit, in order (ADR 0031); none by default. */
  readonly extrasSteps?: readonly ExtrasStep[];
}

const NOSNIFF = { 'x-content-type-options': 'nosniff' };

// One optional trailing slash: people paste `/{code}/` and it names the same link.
const CODE_PATH = /^\/([A-Za-z0-9_-]{1,64})\/?(?:\?|$)/;

/**
 * Answers `GET|HEAD /{code}` straight on the Node response, bypassing routing, hooks and
 * serialization: the hot path does one cache lookup, one decision and one writeHead. It reads
 * only; a cache miss reads the database (synchronously on the embedded one, else awaited) and
 * never writes to it. A redirect's visit goes to an in-memory buffer (recordVisit), never awaited.
 */
export class RedirectResponder {
  private readonly permanentCacheControl: string;
  /** Whether answers are timed: for the visit's latency, the metrics or the debug line. */
  private readonly timed: boolean;
  private readonly failures: Record<RedirectFailure, FailureResponse>;
  private readonly disabled: (reason: string) => FailureResponse;

  constructor(private readonly options: RedirectResponderOptions) {
    this.permanentCacheControl = `public, max-age=${options.maxAgeSeconds}`;
    this.failures = options.failures ?? FAILURE_RESPONSES;
    this.disabled = options.disabledResponse ?? disabledLinkResponses();
    this.timed = options.recordVisit !== undefined || options.metrics !== undefined || options.debugLog !== undefined;
  }

  /** The code a request path names, or undefined when the path is not a short-code path. */
  static codeOf(url: string | undefined): string | undefined {
    const match = url ? CODE_PATH.exec(url) : null;
    const code = match?.[1];
    return code && !isReservedWord(code) ? code : undefined;
  }

  /** `submitted`: what a POST from a link's password or confirmation page carried. */
  respond(code: string, req: IncomingMessage, res: ServerResponse, submitted?: ExtrasVisit['submitted']): void {
    const started = this.timed ? process.hrtime.bigint() : 0n;
    if (this.options.debugLog) this.identify(req, res);
    if (this.options.rateLimit !== undefined && this.limited(req, res, code, started)) return;
    // The one lookup custom domains add (ADR 0036), none while there are none: the Host header as sent, no parsing, no allocation.
    const { hosts, strictHost } = this.options;
    const host = strictHost !== undefined || (hosts !== undefined && hosts.size > 0) ? hostHeaderOf(req.rawHeaders) : undefined;
    const served = host === undefined ? undefined : hosts?.find(host);
    if (served === undefined && strictHost !== undefined && host !== strictHost) {
      this.answered(res, code, this.send(req, res, FAILURE_RESPONSES.not_found), started);
      return;
    }
    const domain = served === undefined ? this.options.domain : served.key;
    const cached = this.options.resolver.fromCache(domain, code);
    if (cached !== undefined) {
      this.write(req, res, code, cached ?? undefined, started, submitted, served);
      return;
    }
    let loaded: RedirectTarget | undefined | Promise<RedirectTarget | undefined>;
    try {
      loaded = this.options.resolver.load(domain, code);
    } catch (error) {
      this.unavailable(req, res, code, error, started);
      return;
    }
    if (loaded instanceof Promise) loaded.then((target) => this.write(req, res, code, target, started, submitted, served), (error: unknown) => this.unavailable(req, res, code, error, started));
    else this.write(req, res, code, loaded, started, submitted, served);
  }

  /** `GET /` on a custom domain with a root redirect: answered here (true); anything else is left to the caller. */
  respondRoot(req: IncomingMessage, res: ServerResponse): boolean {
    const location = this.options.hosts?.find(hostHeaderOf(req.rawHeaders))?.rootRedirectUrl;
    return location != null && sendElsewhere(res, location) > 0;
  }

  /** The answer's request id, set as its header: only when a line will be logged, to keep the fast path lean. */
  private identify(req: IncomingMessage, res: ServerResponse): string {
    const existing = res.getHeader(REQUEST_ID_HEADER);
    if (typeof existing === 'string') return existing;
    const requestId = requestIdOf(req.headers);
    res.setHeader(REQUEST_ID_HEADER, requestId);
    return requestId;
  }

  private limited(req: IncomingMessage, res: ServerResponse, code: string, started: bigint): boolean {
    const wait = this.options.rateLimit!.retryAfterSeconds(req);
    if (wait === 0) return false;
    this.answered(res, code, this.fail(req, res, 'rate_limited', wait), started);
    return true;
  }

  private unavailable(req: IncomingMessage, res: ServerResponse, code: string, error: unknown, started: bigint): void {
    this.options.onError?.(error, this.identify(req, res));
    this.answered(res, code, this.fail(req, res, 'unavailable'), started);
  }

  private write(req: IncomingMessage, res: ServerResponse, code: string, target: RedirectTarget | undefined, started: bigint, submitted?: ExtrasVisit['submitted'], served?: ServedDomain): void {
    if (target?.extras !== undefined) {
      this.withExtras(req, res, code, target as ExtrasTarget, started, submitted, served);
      return;
    }
    const decision = decideRedirect(target, this.options.clock.now());
    if (decision.kind === 'redirect') {
      const record = this.options.recordVisit;
      const ended = this.timed ? process.hrtime.bigint() : 0n;
      const latencyMs = record ? Number(ended - started) / 1e6 : 0;
      const own = decision.status;
      const permanent = own === undefined ? !decision.expiring : own === 301 || own === 308;
      const status = own ?? (permanent ? this.options.permanentStatus : this.options.temporaryStatus);
      res.writeHead(status, {
        location: decision.url,
        'cache-control': permanent ? this.permanentCacheControl : 'private, no-cache',
        'content-length': '0',
      });
      res.end();
      if (record) record(target!.linkId, latencyMs, req.headers['user-agent'], req.headers.referer, this.options.visitorAddress?.(req));
      this.answered(res, code, status, started, ended);
    } else {
      this.notRedirected(req, res, code, decision, started, served);
    }
  }

  private notRedirected(req: IncomingMessage, res: ServerResponse, code: string, decision: NotRedirected, started: bigint, served?: ServedDomain): void {
    if (decision.kind === 'disabled') this.answered(res, code, this.send(req, res, this.disabled(decision.reason)), started);
    else if (decision.kind === 'not_found' && served?.notFoundRedirectUrl != null) this.answered(res, code, sendElsewhere(res, served.notFoundRedirectUrl), started);
    else this.answered(res, code, this.fail(req, res, decision.kind === 'gone' ? decision.reason : 'not_found'), started);
  }

  /** A link with extras: its steps decide, possibly after a database write (ADR 0031). */
  private withExtras(req: IncomingMessage, res: ServerResponse, code: string, target: ExtrasTarget, started: bigint, submitted?: ExtrasVisit['submitted'], served?: ServedDomain): void {
    const visit = extrasVisitOf(req, target, this.options.clock.now(), submitted);
    let outcome: ExtrasOutcome | Promise<ExtrasOutcome>;
    try {
      outcome = answerExtras(this.options.extrasSteps ?? [], visit);
    } catch (error) {
      this.unavailable(req, res, code, error, started);
      return;
    }
    if (outcome instanceof Promise) outcome.then((answer) => this.writeExtras(req, res, code, visit, answer, started, served), (error: unknown) => this.unavailable(req, res, code, error, started));
    else this.writeExtras(req, res, code, visit, outcome, started, served);
  }

  private writeExtras(req: IncomingMessage, res: ServerResponse, code: string, visit: ExtrasVisit, outcome: ExtrasOutcome, started: bigint, served?: ServedDomain): void {
    if (outcome.kind === 'plain') {
      this.notRedirected(req, res, code, outcome.decision, started, served);
      return;
    }
    if (outcome.kind === 'page') {
      const status = this.send(req, res, outcome.page, undefined, visit.headers);
      const ended = this.timed ? process.hrtime.bigint() : 0n;
      if (outcome.recorded) this.recordExtrasVisit(req, visit, started, ended);
      this.answered(res, code, status, started, ended);
      return;
    }
    // Never kept by a browser or a proxy: the next visit may be answered otherwise (a route, a limit, a password).
    res.writeHead(outcome.status, { ...visit.headers, location: outcome.url, 'cache-control': 'private, no-store', 'content-length': '0' });
    res.end();
    const ended = this.timed ? process.hrtime.bigint() : 0n;
    if (outcome.counted) this.recordExtrasVisit(req, visit, started, ended);
    this.answered(res, code, outcome.status, started, ended);
  }

  private recordExtrasVisit(req: IncomingMessage, visit: ExtrasVisit, started: bigint, ended: bigint): void {
    this.options.recordVisit?.(visit.target.linkId, Number(ended - started) / 1e6, req.headers['user-agent'], req.headers.referer, this.options.visitorAddress?.(req), visit.served);
  }

  private answered(res: ServerResponse, code: string, status: number, started: bigint, ended?: bigint): void {
    const { metrics, debugLog } = this.options;
    if (metrics === undefined && debugLog === undefined) return;
    const seconds = Number((ended ?? process.hrtime.bigint()) - started) / 1e9;
    metrics?.answered(status, seconds);
    debugLog?.({ reqId: String(res.getHeader(REQUEST_ID_HEADER)), code, status, ms: seconds * 1000 }, 'redirect answered');
  }

  /** Answers one of the precomputed failures; returns its status. */
  fail(req: IncomingMessage, res: ServerResponse, kind: RedirectFailure, retryAfterSeconds?: number): number {
    const failure = this.failures[kind];
    if (failure.location !== undefined) return sendElsewhere(res, failure.location);
    const wait = kind === 'unavailable' ? retryAfterSeconds ?? this.options.retryAfterSeconds ?? 5 : retryAfterSeconds;
    return this.send(req, res, failure, wait);
  }

  /** Answers a failure's body in JSON or HTML, as the request prefers; returns its status. */
  private send(req: IncomingMessage, res: ServerResponse, failure: FailureResponse, retryAfterSeconds?: number, extraHeaders?: Record<string, string>): number {
    const html = failure.htmlByDefault ? !namesJson(req.headers.accept) : prefersHtml(req.headers.accept);
    const body = html ? failure.html : failure.json;
    const headers: Record<string, string> = {
      ...(html ? FAILURE_PAGE_HEADERS : NOSNIFF),
      'content-type': html ? HTML_CONTENT_TYPE : PROBLEM_CONTENT_TYPE,
      'content-length': String(body.length),
      'cache-control': 'no-store',
      ...(html ? failure.headers?.html : failure.headers?.json),
    };
    if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
    // A step's own headers win: a page of its own may set a stricter policy (link-gate-pages.ts).
    res.writeHead(failure.status, extraHeaders === undefined ? headers : { ...headers, ...extraHeaders });
    res.end(req.method === 'HEAD' ? undefined : body);
    return failure.status;
  }
}
