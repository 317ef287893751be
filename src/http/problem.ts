/** RFC 9457 problem details: `type` is stable per `code`, so clients can switch on either. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly [extra: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

export function problem(status: number, code: string, title: string, detail: string, extra: Record<string, unknown> = {}): Problem {
  return { type: `https://linkforge.dev/problems/${code.replace(/_/g, '-')}`, title, status, detail, code, ...extra };
}
