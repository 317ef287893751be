import { LinkforgeError } from '../core/errors.js';

/**
 * Answered alike for a link that does not exist and for one the caller may not see or change:
 * a 403 would confirm that the id exists (SPEC section 5, RELIABILITY rule 10).
 */
export class LinkNotFoundError extends LinkforgeError {
  constructor() {
    super('link_not_found', 404, 'Link not found', 'No link with this id exists in your workspaces.');
  }
}

/** A workspace holds one link per canonical URL (SPEC section 3). */
export class UrlAlreadyShortenedError extends LinkforgeError {
  constructor(existingCode: string) {
    super('url_already_shortened', 409, 'URL already shortened',
      `This workspace already has a link for this URL, under the short code "${existingCode}".`,
      { shortCode: existingCode });
  }
}

export class LinkNotDeletedError extends LinkforgeError {
  constructor() {
    super('link_not_deleted', 409, 'Link not deleted', 'Only a deleted link can be restored.');
  }
}

export class InvalidCursorError extends LinkforgeError {
  constructor() {
    super('cursor_invalid', 400, 'Invalid input', 'The cursor is not one this API returned.');
  }
}
