import { ValidationError } from '../core/errors.js';
import type { WebhookAddressCheck } from '../core/webhook-ports.js';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * A webhook URL as stored: absolute http(s), no user info, and leading to an address the health
 * check could reach (ALLOW_PRIVATE_DESTINATIONS lets it be internal). The delivery job vets the
 * address again at every attempt: a name can change what it resolves to.
 */
export async function parseWebhookUrl(raw: string, checkAddress: WebhookAddressCheck): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError('webhook_url_invalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '' || raw.length > MAX_WEBHOOK_URL_LENGTH) {
    throw new ValidationError('webhook_url_invalid');
  }
  const verdict = await checkAddress(url);
  if (verdict === 'refused') throw new ValidationError('webhook_url_refused');
  if (verdict === 'unresolved') throw new ValidationError('webhook_url_invalid', `${url.hostname} does not resolve to an address.`);
  return url.href;
}
