/**
 * What the API refused (its RFC 9457 problem detail), or why it could not be asked. A tool answers
 * it as an error result the model can read and act on, never as a crash (ADR 0033).
 */
export class ApiProblem extends Error {
  constructor(
    readonly title: string,
    readonly detail: string | undefined,
    /** The HTTP status; undefined when no answer came. */
    readonly status: number | undefined,
    /** The problem's stable snake_case code (docs/adr/0009-error-catalogue.md), when it has one. */
    readonly code: string | undefined,
  ) {
    const where = [status === undefined ? undefined : `HTTP ${status}`, code].filter(Boolean).join(', ');
    super(`${title}${detail ? `: ${detail}` : ''}${where ? ` (${where})` : ''}`);
    this.name = 'ApiProblem';
  }
}

interface ProblemJson {
  readonly title?: unknown;
  readonly detail?: unknown;
  readonly code?: unknown;
}

const textOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The problem a failed answer carries: its problem+json fields, or its status line and the start of its body. */
export async function problemOf(response: Response): Promise<ApiProblem> {
  const body = await response.text();
  let json: ProblemJson | undefined;
  try {
    json = JSON.parse(body) as ProblemJson;
  } catch {
    json = undefined;
  }
  const title = textOf(json?.title) ?? (response.statusText || 'The request failed');
  const detail = json ? textOf(json.detail) : textOf(body.slice(0, 300));
  return new ApiProblem(title, detail, response.status, textOf(json?.code));
}
