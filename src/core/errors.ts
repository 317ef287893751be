/**
 * Errors that carry their HTTP meaning. The HTTP layer turns any LinkforgeError into an
 * RFC 9457 problem detail: `code` is the stable machine-readable reason, `status` the HTTP status.
 */
export class LinkforgeError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

/** Input that breaks a rule: 400. `code` names the rule, e.g. `url_scheme_not_allowed`. */
export class ValidationError extends LinkforgeError {
  constructor(code: string, detail: string, extra: Record<string, unknown> = {}) {
    super(code, 400, 'Invalid input', detail, extra);
  }
}

export class NotFoundError extends LinkforgeError {
  constructor(detail = 'No such resource.') {
    super('not_found', 404, 'Not found', detail);
  }
}

export class CodeTakenError extends LinkforgeError {
  constructor(code: string) {
    super('code_taken', 409, 'Short code taken', `The short code "${code}" is already in use.`, { shortCode: code });
  }
}

export class CodeSpaceExhaustedError extends LinkforgeError {
  constructor(attempts: number) {
    super('code_generation_failed', 500, 'Could not generate a short code',
      `No free short code was found after ${attempts} attempts.`);
  }
}

export class StoreUnavailableError extends LinkforgeError {
  constructor(detail = 'The database cannot be reached right now.') {
    super('store_unavailable', 503, 'Service unavailable', detail);
  }
}
