import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedirectTarget } from '../core/link.js';
import type { Clock } from '../core/ports.js';
import { decideRedirect } from '../core/redirect-decision.js';
import { isReservedWord } from '../core/short-code.js';
import type { LinkResolver } from '../links/resolve-link.js';
import type { RecordVisit } from '../analytics/visit-buffer.js';
import { prefersHtml } from './accept.js';
import { FAILURE_PAGE_HEADERS, FAILURE_RESPONSES, HTML_CONTENT_TYPE, PROBLEM_CONTENT_TYPE, type RedirectFailure } from './redirect-pages.js';

export interface RedirectResponderOptions {
  readonly resolver: LinkResolver;
  /** The domain whose codes this responder answers. */
  readonly domain: string;
  readonly clock: Clock;
  readonly permanentStatus: number;
  readonly temporaryStatus: number;
  readonly maxAgeSeconds: number;
  readonly retryAfterSeconds?: number;
  readonly onError?: (error: unknown) => void;
  /** Appends an answered redirect to the analytics buffer; absent when analytics are off. */
  readonly recordVisit?: RecordVisit;
}

const NOSNIFF = { 'x-content-type-options': 'nosniff' };

// One optional trailing slash: people paste `/{code}/` and it names the same link (SPEC section 4).
const CODE_PATH = /^\/([A-Za-z0-9_-]{1,64})\/?(?:\?|$)/;

/**
 * Answers `GET|HEAD /{code}` straight on the Node response, bypassing routing, hooks and
 * serialization: the hot path does one cache lookup, one decision and one writeHead. It reads
 * only; a cache miss reads the database (synchronously on the embedded one, else awaited) and
 * never writes to it. A redirect's visit goes to an in-memory buffer (recordVisit), never awaited.
 */
export class RedirectResponder {
  private readonly permanentCacheControl: string;

  constructor(private readonly options: RedirectResponderOptions) {
    this.permanentCacheControl = `public, max-age=${options.maxAgeSeconds}`;
  }

  /** The code a request path names, or undefined when the path is not a short-code path. */
  static codeOf(url: string | undefined): string | undefined {
    const match = url ? CODE_PATH.exec(url) : null;
    const code = match?.[1];
    return code && !isReservedWord(code) ? code : undefined;
  }

  respond(code: string, req: IncomingMessage, res: ServerResponse): void {
    const started = this.options.recordVisit ? process.hrtime.bigint() : 0n;
    const cached = this.options.resolver.fromCache(this.options.domain, code);
    if (cached !== undefined) {
      this.write(req, res, cached ?? undefined, started);
      return;
    }
    let loaded: RedirectTarget | undefined | Promise<RedirectTarget | undefined>;
    try {
      loaded = this.options.resolver.load(this.options.domain, code);
    } catch (error) {
      this.unavailable(req, res, error);
      return;
    }
    if (loaded instanceof Promise) loaded.then((target) => this.write(req, res, target, started), (error: unknown) => this.unavailable(req, res, error));
    else this.write(req, res, loaded, started);
  }

  private unavailable(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    this.options.onError?.(error);
    this.fail(req, res, 'unavailable');
  }

  private write(req: IncomingMessage, res: ServerResponse, target: RedirectTarget | undefined, started: bigint): void {
    const decision = decideRedirect(target, this.options.clock.now());
    if (decision.kind === 'redirect') {
      const record = this.options.recordVisit;
      const latencyMs = record ? Number(process.hrtime.bigint() - started) / 1e6 : 0;
      const permanent = !decision.expiring;
      res.writeHead(permanent ? this.options.permanentStatus : this.options.temporaryStatus, {
        location: decision.url,
        'cache-control': permanent ? this.permanentCacheControl : 'private, no-cache',
        'content-length': '0',
      });
      res.end();
      if (record) record(target!.linkId, latencyMs, req.headers['user-agent'], req.headers.referer);
    } else {
      this.fail(req, res, decision.kind === 'gone' ? decision.reason : 'not_found');
    }
  }

  fail(req: IncomingMessage, res: ServerResponse, kind: RedirectFailure): void {
    const failure = FAILURE_RESPONSES[kind];
    const html = prefersHtml(req.headers.accept);
    const body = html ? failure.html : failure.json;
    const headers: Record<string, string> = {
      ...(html ? FAILURE_PAGE_HEADERS : NOSNIFF),
      'content-type': html ? HTML_CONTENT_TYPE : PROBLEM_CONTENT_TYPE,
      'content-length': String(body.length),
      'cache-control': 'no-store',
    };
    if (kind === 'unavailable') headers['retry-after'] = String(this.options.retryAfterSeconds ?? 5);
    res.writeHead(failure.status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}
