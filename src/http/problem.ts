import { ERROR_CATALOGUE, type ErrorCode } from '../core/error-codes.js';

/** RFC 9457 problem details: `type` is stable per `code`, so clients can switch on either. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: ErrorCode;
  readonly [extra: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** The problem detail for `code`: status and title from the catalogue, its default detail unless one is given. */
export function problem(code: ErrorCode, detail?: string, extra: Record<string, unknown> = {}): Problem {
  const { status, title } = ERROR_CATALOGUE[code];
  return { type: `https://linkforge.dev/problems/${code.replace(/_/g, '-')}`, title, status, detail: detail ?? ERROR_CATALOGUE[code].detail, code, ...extra };
}
