import { LinkforgeError } from '../core/errors.js';

/** No valid credentials. The HTTP layer adds `www-authenticate: Bearer`. */
export class UnauthorizedError extends LinkforgeError {
  constructor(detail = 'A valid bearer token is required.') {
    super('unauthorized', 401, 'Unauthorized', detail);
  }
}

/** One answer for an unknown email and a wrong password, so login reveals nothing about accounts. */
export class InvalidCredentialsError extends LinkforgeError {
  constructor() {
    super('invalid_credentials', 401, 'Unauthorized', 'The email or password is incorrect.');
  }
}

/** A member whose role does not allow the action (non-members get 404 instead). */
export class ForbiddenError extends LinkforgeError {
  constructor(detail = 'Your role does not allow this action.') {
    super('forbidden', 403, 'Forbidden', detail);
  }
}

export class EmailTakenError extends LinkforgeError {
  constructor() {
    super('email_taken', 409, 'Email taken', 'An account with this email already exists.');
  }
}

export class UserNotFoundError extends LinkforgeError {
  constructor() {
    super('user_not_found', 404, 'User not found', 'No user has this email; they must register first.');
  }
}

export class AlreadyMemberError extends LinkforgeError {
  constructor() {
    super('already_member', 409, 'Already a member', 'This user is already a member of the workspace.');
  }
}

export class LastOwnerError extends LinkforgeError {
  constructor() {
    super('last_owner', 409, 'Last owner', 'A workspace must keep at least one owner.');
  }
}

/** The password-hashing queue is full: a login or registration flood must not starve redirects. */
export class HashingBusyError extends LinkforgeError {
  constructor() {
    super('server_busy', 503, 'Service unavailable', 'Too many sign-ins at once; retry in a few seconds.');
  }
}
