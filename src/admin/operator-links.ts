import type { LinkForOperator } from '../core/admin-ports.js';
import { LinkforgeError } from '../core/errors.js';
import type { AdminServices } from './admin-services.js';

export const MAX_REASON_LENGTH = 500;
// Control characters would garble the 410 page and the log lines; a reason is one plain sentence or a few.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

const noSuchLink = () => new LinkforgeError('link_not_found', 'No link has this short code.');

/** Any link by its code, whoever owns it: the service's operator sees every workspace. */
export async function findLinkForOperator(deps: Pick<AdminServices, 'store' | 'domain'>, code: string): Promise<LinkForOperator> {
  const found = await deps.store.findLinkForOperator(deps.domain, code);
  if (!found) throw noSuchLink();
  return found;
}

/**
 * The abuse workflow: the link answers 410 with `reason` on every instance at once (its code is
 * invalidated on every tier) until the operator enables it again. Its owner's delete, restore and
 * edits leave the disable in place. Disabling a disabled link replaces its reason. `operatorId` is
 * null from the command line, whose operator is whoever runs it.
 */
export async function disableLink(deps: AdminServices, operatorId: number | null, code: string, reason: string): Promise<LinkForOperator> {
  const text = reason.trim();
  if (text.length === 0 || text.length > MAX_REASON_LENGTH || CONTROL.test(text)) throw new LinkforgeError('disable_reason_invalid');
  const disabled = await deps.store.setLinkDisabled(deps.domain, code, { reason: text, at: deps.clock.now(), by: operatorId });
  if (!disabled) throw noSuchLink();
  await deps.cache.invalidate(deps.domain, code);
  return disabled;
}

/** The link redirects again as its own status says; enabling a link that is not disabled changes nothing. */
export async function enableLink(deps: AdminServices, code: string): Promise<LinkForOperator> {
  const enabled = await deps.store.setLinkDisabled(deps.domain, code, null);
  if (!enabled) throw noSuchLink();
  await deps.cache.invalidate(deps.domain, code);
  return enabled;
}
