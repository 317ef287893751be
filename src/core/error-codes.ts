/**
 * Every error code a client can see, in one place. A code names its subject first, then what is
 * wrong with it (`url_too_long`, `link_not_found`, `rate_limit_exceeded`); the problem detail's
 * `type` is derived from it, so a code, once published, never changes.
 *
 * `detail` is the default human sentence; a thrower may give a more precise one.
 * `shedding` marks a 5xx that the service answers on purpose to protect itself: it is logged at
 * `warn`, while a 5xx caused by a failing dependency or a bug is logged at `error`.
 */
export const ERROR_CATALOGUE = {
  // 400: the request breaks a rule
  validation_failed: { status: 400, title: 'Invalid request', detail: 'The request does not match the expected shape.' },
  request_invalid: { status: 400, title: 'Bad request', detail: 'The request could not be read.' },
  json_malformed: { status: 400, title: 'Malformed JSON', detail: 'The body is not valid JSON.' },
  body_not_utf8: { status: 400, title: 'Body not UTF-8', detail: 'The body is not valid UTF-8. Send JSON encoded as UTF-8; bytes are never guessed or replaced.' },
  body_bom_not_allowed: { status: 400, title: 'Byte order mark in body', detail: 'The body starts with a byte order mark, which JSON does not allow (RFC 8259). Send it without one.' },
  body_key_duplicated: { status: 400, title: 'Repeated key in body', detail: 'The body gives a key more than once in one object.' },
  host_header_repeated: { status: 400, title: 'Repeated Host header', detail: 'The request has more than one Host header; send exactly one.' },
  content_length_invalid: { status: 400, title: 'Invalid Content-Length', detail: 'The Content-Length header does not match the body.' },
  stats_range_invalid: { status: 400, title: 'Invalid statistics range', detail: 'The range must have from before to and span at most the interval\'s limit.' },
  cursor_invalid: { status: 400, title: 'Invalid cursor', detail: 'The cursor is not one this API returned.' },
  url_invalid: { status: 400, title: 'Invalid URL', detail: 'This is not a valid absolute URL.' },
  url_whitespace_not_allowed: { status: 400, title: 'Whitespace in URL', detail: 'The URL must not contain spaces, line breaks or other control characters.' },
  url_too_long: { status: 400, title: 'URL too long', detail: 'The URL is too long.' },
  url_scheme_not_allowed: { status: 400, title: 'URL scheme not allowed', detail: 'Only http and https URLs can be shortened.' },
  url_userinfo_not_allowed: { status: 400, title: 'User info in URL', detail: 'URLs containing a user name or password cannot be shortened.' },
  url_loop_not_allowed: { status: 400, title: 'URL would loop', detail: 'Links to this shortener\'s own short domain are not allowed.' },
  url_private_address_not_allowed: { status: 400, title: 'Private address', detail: 'Links to internal network addresses are not allowed.' },
  url_domain_blocked: { status: 400, title: 'Blocked domain', detail: 'Links to this domain are not allowed on this service.' },
  custom_code_invalid: { status: 400, title: 'Invalid custom code', detail: 'The custom short code is not valid.' },
  custom_code_reserved: { status: 400, title: 'Reserved custom code', detail: 'This word is reserved and cannot be used as a short code.' },
  max_clicks_invalid: { status: 400, title: 'Invalid click limit', detail: 'A click limit is a whole number from 1 to 1000000000, or null for none.' },
  expires_at_not_future: { status: 400, title: 'Expiry in the past', detail: 'The expiry date must be in the future.' },
  password_invalid: { status: 400, title: 'Invalid password', detail: 'The password contains a character that is not allowed.' },
  password_too_short: { status: 400, title: 'Password too short', detail: 'The password is too short.' },
  password_too_long: { status: 400, title: 'Password too long', detail: 'The password is too long.' },
  email_invalid: { status: 400, title: 'Invalid email', detail: 'The email address is not valid.' },
  workspace_name_invalid: { status: 400, title: 'Invalid workspace name', detail: 'The workspace name must not be blank.' },
  webhook_url_invalid: { status: 400, title: 'Invalid webhook URL', detail: 'A webhook URL is an absolute http or https URL without user info.' },
  webhook_url_refused: { status: 400, title: 'Webhook URL refused', detail: 'The webhook URL is, or resolves to, an internal or non-unicast address.' },
  webhook_events_invalid: { status: 400, title: 'Invalid webhook events', detail: 'Choose one or more of link.created, link.updated, link.deleted, link.expired, link.limit_reached and link.clicked.' },
  api_key_name_invalid: { status: 400, title: 'Invalid API key name', detail: 'The API key name must not be blank.' },
  api_key_expiry_invalid: { status: 400, title: 'Invalid API key expiry', detail: 'expiresAt must be a time in the future.' },
  import_format_invalid: { status: 400, title: 'Unknown import format', detail: 'The file is not a Linkforge, Bitly, Shlink, Kutt or YOURLS export.' },
  import_file_missing: { status: 400, title: 'No file', detail: 'Send the export as the multipart/form-data part named "file".' },
  import_not_utf8: { status: 400, title: 'Import not UTF-8', detail: 'The file is not valid UTF-8; bytes are never guessed or replaced.' },
  multipart_invalid: { status: 400, title: 'Malformed upload', detail: 'The multipart/form-data body could not be read.' },
  disable_reason_invalid: { status: 400, title: 'Invalid reason', detail: 'Give the reason in 1 to 500 characters; it is shown to everyone who follows the link.' },
  bulk_selection_invalid: { status: 400, title: 'Invalid selection', detail: 'Name the links by `ids` or by `matching`, exactly one of them.' },
  bulk_too_many: { status: 400, title: 'Too many links', detail: 'A bulk action takes at most 1000 links; narrow the filter or select fewer.' },
  tag_name_invalid: { status: 400, title: 'Invalid tag name', detail: 'A tag name is 1–32 letters, digits, spaces or - _ . / & +, starting with a letter or digit.' },
  tag_colour_invalid: { status: 400, title: 'Invalid tag colour', detail: 'A tag colour is a palette name or #rrggbb.' },
  tags_too_many: { status: 400, title: 'Too many tags', detail: 'A link carries at most 10 tags.' },
  preview_invalid: { status: 400, title: 'Invalid link preview', detail: 'A link preview has a title (at most 200 characters), a description (at most 500) or an image URL, without control characters.' },
  routes_invalid: { status: 400, title: 'Invalid routes', detail: 'Routes are at most 10 rules, each naming a country, device or language and a URL.' },
  variants_invalid: { status: 400, title: 'Invalid variants', detail: 'An A/B split is 2 to 10 variants, each a URL with a whole weight from 1 to 1000.' },
  sso_callback_invalid: { status: 400, title: 'Sign-in answer refused', detail: 'The answer of the sign-in provider could not be accepted (its state, code or issuer did not match, or it came too late); start signing in again.' },
  domain_invalid: { status: 400, title: 'Invalid domain', detail: 'A domain is a public DNS name such as links.example.com: no scheme, port, path or IP address, and not this service\'s own host.' },
  domain_not_verified: { status: 400, title: 'Domain not verified', detail: 'Links can be made only on a verified domain of the link\'s workspace.' },
  owner_role_not_allowed: { status: 400, title: 'Owner role not allowed', detail: 'Members can be added as admin or member; a workspace\'s owners are fixed at creation.' },
  // 408: a client that stops sending
  upload_timeout: { status: 408, title: 'Upload stalled', detail: 'The upload sent nothing for too long.' },
  // 401, 403: who is asking, and what they may do
  authentication_required: { status: 401, title: 'Unauthorized', detail: 'A valid bearer token is required.' },
  link_password_required: { status: 401, title: 'Password required', detail: 'This link asks for a password: send it form-encoded (password=…) in a POST to the same address.' },
  link_password_incorrect: { status: 401, title: 'Wrong password', detail: 'This is not the link\'s password.' },
  link_confirmation_required: { status: 403, title: 'Confirmation required', detail: 'This link asks its visitors to confirm: send confirm=1 form-encoded in a POST to the same address.' },
  credentials_invalid: { status: 401, title: 'Unauthorized', detail: 'The email or password is incorrect.' },
  account_disabled: { status: 403, title: 'Account disabled', detail: 'This account has been disabled by the operator of this service.' },
  csrf_token_invalid: { status: 403, title: 'CSRF token missing', detail: 'A change made with the session cookie must send the X-CSRF-Token header that sign-in answered; reload the page and try again.' },
  link_change_not_allowed: { status: 403, title: 'Not your link', detail: 'Only the link\'s creator or a workspace admin can change it.' },
  link_share_not_allowed: { status: 403, title: 'Not a workspace admin', detail: 'Only an owner or admin of the link\'s workspace can share its stats or revoke a share.' },
  insufficient_scope: { status: 403, title: 'Insufficient scope', detail: 'This API key lacks the scope this route needs.' },
  permission_denied: { status: 403, title: 'Forbidden', detail: 'Your role or credential does not allow this action.' },
  registration_disabled: { status: 403, title: 'Registration closed', detail: 'This instance does not accept new accounts; ask its administrator to create one for you.' },
  password_login_disabled: { status: 403, title: 'Password sign-in off', detail: 'This instance does not sign in with passwords; use its single sign-on.' },
  sso_email_unverified: { status: 403, title: 'Email not verified', detail: 'The sign-in provider did not confirm that this email address is yours (email_verified), so no account can be matched or made for it.' },
  anonymous_links_disabled: { status: 403, title: 'Sign-in required', detail: 'This instance shortens links for signed-in users only; sign in to create one.' },
  // 404, 410: what is not there (someone else's resource answers 404 too: no existence oracle)
  route_not_found: { status: 404, title: 'Not found', detail: 'No such route.' },
  link_not_found: { status: 404, title: 'Link not found', detail: 'No link with this id exists in your workspaces.' },
  shared_stats_not_found: { status: 404, title: 'Shared stats not found', detail: 'This share address does not exist or was revoked.' },
  user_not_found: { status: 404, title: 'User not found', detail: 'No user has this email; they must register first.' },
  workspace_not_found: { status: 404, title: 'Workspace not found', detail: 'No such workspace.' },
  member_not_found: { status: 404, title: 'Member not found', detail: 'No such member in this workspace.' },
  tag_not_found: { status: 404, title: 'Tag not found', detail: 'No such tag in this workspace.' },
  webhook_not_found: { status: 404, title: 'Webhook not found', detail: 'No such webhook in this workspace.' },
  webhook_delivery_not_found: { status: 404, title: 'Delivery not found', detail: 'No such delivery of this webhook.' },
  domain_not_found: { status: 404, title: 'Domain not found', detail: 'No such domain in this workspace.' },
  api_key_not_found: { status: 404, title: 'API key not found', detail: 'No such API key in this workspace.' },
  link_expired: { status: 410, title: 'Link expired', detail: 'This short link has expired.' },
  link_deleted: { status: 410, title: 'Link deleted', detail: 'This short link was deleted by its owner.' },
  link_disabled: { status: 410, title: 'Link disabled', detail: 'This short link was disabled by the operator of this service.' },
  link_limit_reached: { status: 410, title: 'Link used up', detail: 'This short link has been followed as many times as its owner allowed.' },
  // 409: the state of things forbids it
  code_taken: { status: 409, title: 'Short code taken', detail: 'The short code is already in use.' },
  url_already_shortened: { status: 409, title: 'URL already shortened', detail: 'This workspace already has a link for this URL.' },
  link_not_deleted: { status: 409, title: 'Link not deleted', detail: 'Only a deleted link can be restored.' },
  email_taken: { status: 409, title: 'Email taken', detail: 'An account with this email already exists.' },
  tag_name_taken: { status: 409, title: 'Tag name taken', detail: 'The workspace already has a tag of this name.' },
  domain_taken: { status: 409, title: 'Domain taken', detail: 'This domain is already registered on this service.' },
  domain_verification_failed: { status: 409, title: 'Domain not verified', detail: 'Neither the DNS TXT record nor the HTTP challenge shows the verification token yet.' },
  member_exists: { status: 409, title: 'Already a member', detail: 'This user is already a member of the workspace.' },
  workspace_owner_required: { status: 409, title: 'Last owner', detail: 'A workspace must keep at least one owner.' },
  user_disable_self: { status: 409, title: 'Cannot disable yourself', detail: 'An operator cannot disable their own account; ask another admin.' },
  sso_account_linked_elsewhere: { status: 409, title: 'Account linked to someone else', detail: 'The account with this email already signs in as another person of this sign-in provider.' },
  cleanup_locked: { status: 409, title: 'Cleanup locked', detail: 'Another cleanup run holds the lock; try again after it is released.' },
  // 413, 415, 429: what the server refuses to read
  body_too_large: { status: 413, title: 'Body too large', detail: 'The request body is too large.' },
  import_too_large: { status: 413, title: 'Import too large', detail: 'The file breaks a limit of imports (rows, fields or bytes per row).' },
  media_type_unsupported: { status: 415, title: 'Unsupported media type', detail: 'The API accepts application/json bodies only.' },
  rate_limit_exceeded: { status: 429, title: 'Too many requests', detail: 'Too many requests; retry later.' },
  import_already_running: { status: 429, title: 'Import already running', detail: 'An import of yours is still running; retry once it has finished.' },
  // 5xx
  server_failed: { status: 500, title: 'Internal server error', detail: 'Something went wrong on our side.' },
  code_generation_failed: { status: 500, title: 'Could not generate a short code', detail: 'No free short code was found.' },
  store_unavailable: { status: 503, title: 'Service unavailable', detail: 'The database cannot be reached right now.' },
  server_busy: { status: 503, title: 'Service unavailable', detail: 'Too many sign-ins at once; retry in a few seconds.', shedding: true },
  import_capacity_reached: { status: 503, title: 'Service unavailable', detail: 'Too many imports are running on this instance; retry in a few seconds.', shedding: true },
  import_spool_unavailable: { status: 503, title: 'Service unavailable', detail: 'The server cannot store the uploaded file right now; retry later.' },
  sso_provider_unavailable: { status: 503, title: 'Service unavailable', detail: 'The sign-in provider cannot be reached right now; retry in a few seconds.' },
  server_shutting_down: { status: 503, title: 'Service unavailable', detail: 'This instance is shutting down.', shedding: true },
  ui_not_built: { status: 503, title: 'Web UI not built', detail: 'The web UI has not been built: run `npm run build:ui` (npm start does it for you).' },
} as const satisfies Record<string, { status: number; title: string; detail: string; shedding?: true }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The codes answered with one HTTP status, e.g. `CodeWithStatus<400>` for input that breaks a rule. */
export type CodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CATALOGUE)[C]['status'] extends S ? C : never;
}[ErrorCode];

export function isShedding(code: ErrorCode): boolean {
  return 'shedding' in ERROR_CATALOGUE[code];
}
