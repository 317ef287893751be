import { ERROR_CATALOGUE, type CodeWithStatus, type ErrorCode } from './error-codes.js';

/**
 * Errors that carry their HTTP meaning. The HTTP layer turns any LinkforgeError into an
 * RFC 9457 problem detail: `code` is the stable machine-readable reason; status and title come
 * from the catalogue, so one code always answers the same way.
 */
export class LinkforgeError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly extra: Record<string, unknown>;

  constructor(code: ErrorCode, detail?: string, extra?: Record<string, unknown>) {
    const entry = ERROR_CATALOGUE[code];
    super(detail ?? entry.detail);
    this.name = new.target.name;
    this.code = code;
    this.status = entry.status;
    this.title = entry.title;
    this.extra = extra ?? {};
  }
}

/** Input that breaks a rule: 400. `code` names the rule, e.g. `url_scheme_not_allowed`. */
export class ValidationError extends LinkforgeError {
  constructor(code: CodeWithStatus<400>, detail?: string, extra: Record<string, unknown> = {}) {
    super(code, detail, extra);
  }
}

export class CodeTakenError extends LinkforgeError {
  constructor(code: string) {
    super('code_taken', `The short code "${code}" is already in use.`, { shortCode: code });
  }
}

export class CodeSpaceExhaustedError extends LinkforgeError {
  constructor(attempts: number) {
    super('code_generation_failed', `No free short code was found after ${attempts} attempts.`);
  }
}

export class StoreUnavailableError extends LinkforgeError {
  constructor(detail?: string) {
    super('store_unavailable', detail);
  }
}

/** A workspace holds one link per canonical URL (ADR 0007); `shortCode` names the link it has. */
export class UrlAlreadyShortenedError extends LinkforgeError {
  constructor(existingCode: string) {
    super('url_already_shortened',
      `This workspace already has a link for this URL, under the short code "${existingCode}".`,
      { shortCode: existingCode });
  }
}
