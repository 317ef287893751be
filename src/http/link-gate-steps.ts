import type { ExtrasOutcome, ExtrasStep, ExtrasVisit } from './link-extras.js';
import { GATE_PAGE_HEADERS, gatePage, type GatePage } from './link-gate-pages.js';
import type { UnlockCookie } from './link-unlock-cookie.js';
import type { PasswordAttemptLimit } from './password-attempt-limit.js';

/** What the password step needs from the running service. */
export interface PasswordStepDeps {
  /** bcrypt's comparison through the accounts' hasher; without a hash it compares against a dummy of the same cost. */
  readonly verify: (password: string, hash: string | undefined) => Promise<boolean>;
  readonly cookie: UnlockCookie;
  readonly attempts: PasswordAttemptLimit;
  /** The client address wrong attempts are counted by. */
  readonly clientOf: (visit: ExtrasVisit['req']) => string;
  readonly stylesheet?: string;
}

// The responder took the code from this path already; a form posts to `/{code}` or `/{code}/`.
const codeOf = (visit: ExtrasVisit) => /^\/([A-Za-z0-9_-]+)/.exec(visit.req.url ?? '')?.[1] ?? '';

function pageOutcome(visit: ExtrasVisit, page: GatePage, stylesheet: string | undefined): ExtrasOutcome {
  Object.assign(visit.headers, GATE_PAGE_HEADERS);
  return { kind: 'page', page: gatePage(page, codeOf(visit), visit.req, stylesheet) };
}

/**
 * A password link (ADR 0031): the destination only after the right password, posted from the
 * page or proved by the unlock cookie a right password set. Wrong passwords are counted per client
 * and link; past the limit none is even compared. Gone or disabled links are answered as such.
 */
export function passwordStep(deps: PasswordStepDeps): ExtrasStep {
  return (visit) => {
    if (visit.decision.kind !== 'redirect') return undefined;
    const hash = visit.target.extras.passwordHash;
    const password = visit.submitted?.password;
    if (hash === undefined) {
      // A password sent to a link without one costs the same comparison, so timing tells nothing.
      return password === undefined ? undefined : deps.verify(password, undefined).then(() => undefined);
    }
    if (password !== undefined) return checked(deps, visit, password, hash);
    return deps.cookie.isValid(visit.req, visit.target.linkId, hash, visit.now) ? undefined : pageOutcome(visit, 'password', deps.stylesheet);
  };
}

async function checked(deps: PasswordStepDeps, visit: ExtrasVisit, password: string, hash: string): Promise<ExtrasOutcome | undefined> {
  const client = deps.clientOf(visit.req);
  const wait = deps.attempts.attempt(client, visit.target.linkId);
  if (wait > 0) {
    visit.headers['retry-after'] = String(wait);
    return pageOutcome(visit, 'password_limited', deps.stylesheet);
  }
  if (!await deps.verify(password, hash)) return pageOutcome(visit, 'password_wrong', deps.stylesheet);
  deps.attempts.succeeded(client, visit.target.linkId);
  visit.headers['set-cookie'] = deps.cookie.issue(codeOf(visit), visit.target.linkId, hash, visit.now);
  return undefined;
}

/**
 * A link that asks its visitor to confirm: GET and HEAD get the one-button page and count nothing
 * (an email scanner's fetch does not consume a one-time link); only the page's POST goes on. A
 * right password posted to a link with both is the visitor's interaction already.
 */
export function confirmStep(stylesheet: string | undefined): ExtrasStep {
  return (visit) => {
    if (visit.decision.kind !== 'redirect' || visit.target.extras.options?.confirmBeforeRedirect !== true) return undefined;
    const submitted = visit.submitted;
    if (submitted?.confirmed === true) return undefined;
    if (submitted?.password !== undefined && visit.target.extras.passwordHash !== undefined) return undefined;
    return pageOutcome(visit, 'confirm', stylesheet);
  };
}
