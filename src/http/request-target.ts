import type { IncomingMessage, ServerResponse } from 'node:http';
import { problem, PROBLEM_CONTENT_TYPE } from './problem.js';

const SLASH = 0x2f;
// Only http and https targets name this server; anything else is left for the router to refuse.
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;
const SEVERAL_HOSTS_BODY = Buffer.from(JSON.stringify(problem('host_header_repeated')));

/**
 * Runs before both the redirect fast path and Fastify, on every request, so the common case costs
 * one character test and a walk over the raw header names. Returns false when it has answered.
 *
 * RFC 9112 section 3.2.2: a target in absolute form (`GET http://host/code HTTP/1.1`), which Node
 * hands over as it came, is served as its origin form. Section 3.2: more than one Host header is a
 * 400 (Node keeps the first and passes the request on); a missing one Node refuses itself.
 */
export function admitRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url;
  if (target !== undefined && target.charCodeAt(0) !== SLASH) req.url = originForm(target);
  if (!hasSeveralHosts(req.rawHeaders)) return true;
  res.writeHead(400, { 'content-type': PROBLEM_CONTENT_TYPE, 'content-length': String(SEVERAL_HOSTS_BODY.length), connection: 'close' });
  res.end(req.method === 'HEAD' ? undefined : SEVERAL_HOSTS_BODY);
  return false;
}

/** Path and query of an absolute-form target; the authority is ignored, as every host this server answers serves the same links. */
export function originForm(target: string): string {
  const authority = ABSOLUTE_FORM.exec(target);
  if (authority === null) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

const isHostName = (name: string) => name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host');

function hasSeveralHosts(rawHeaders: readonly string[]): boolean {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (isHostName(rawHeaders[i]!)) {
      if (seen) return true;
      seen = true;
    }
  }
  return false;
}

/**
 * The Host header's value as sent, read from the raw headers: `req.headers` is built on first use,
 * an object per request the redirect path does not otherwise need (ADR 0036).
 */
export function hostHeaderOf(rawHeaders: readonly string[]): string | undefined {
  for (let i = 0; i < rawHeaders.length; i += 2) if (isHostName(rawHeaders[i]!)) return rawHeaders[i + 1];
  return undefined;
}
