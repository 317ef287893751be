import { Type } from '@sinclair/typebox';
import { NO_SECURITY } from './auth.js';
import { problemRef, PROBLEM_MEDIA_TYPE, RETRY_AFTER } from './schemas.js';

export interface RedirectStatuses {
  readonly permanentStatus: number;
  readonly temporaryStatus: number;
  readonly maxAgeSeconds: number;
}

const LOCATION = { type: 'string', format: 'uri', description: 'The original URL, fragment kept.' };

function failure(description: string, headers?: Record<string, unknown>) {
  return {
    description: `${description} A client whose Accept prefers text/html gets a small page instead.`,
    ...(headers && { headers }),
    content: { [PROBLEM_MEDIA_TYPE]: { schema: problemRef }, 'text/html': { schema: { type: 'string' } } },
  };
}

function redirect(description: string, cacheControl: string) {
  return { description, type: 'null', headers: { location: LOCATION, 'cache-control': { type: 'string', description: cacheControl } } };
}

/** What `GET|HEAD /{code}` answers on this instance (ADR 0006): its redirect statuses come from the configuration. */
export function redirectRouteSchema({ permanentStatus, temporaryStatus, maxAgeSeconds }: RedirectStatuses) {
  const permanentCache = `\`public, max-age=${maxAgeSeconds}\``;
  const redirects = permanentStatus === temporaryStatus
    ? { [permanentStatus]: redirect('A link: permanent, or with an expiry date in the future.', `${permanentCache} for a permanent link, \`private, no-cache\` for an expiring one.`) }
    : {
        [permanentStatus]: redirect('A permanent link (no expiry date).', permanentCache),
        [temporaryStatus]: redirect('A link whose expiry date is in the future.', '`private, no-cache`'),
      };
  return {
    operationId: 'followLink',
    summary: 'Follow a short link',
    description: 'GET and HEAD answer alike; HEAD without a body.',
    tags: ['redirect'],
    security: NO_SECURITY,
    params: Type.Object({ code: Type.String({ description: '1 to 64 letters, digits, `-` or `_`.' }) }),
    response: {
      ...redirects,
      404: failure('No link has this code (never existed, or purged).'),
      410: failure('The link has expired (`reason: expired`), was deleted (`reason: deleted`), or was followed by as many people as its click limit allows (`reason: limit_reached`); with a fallback URL, expired, deleted and used-up links answer 302 to it instead.'),
      429: failure('This client asked for more redirects than RATE_LIMIT_REDIRECTS allows per minute (off by default).', RETRY_AFTER),
      503: failure('The database cannot be reached and the link is not cached.', RETRY_AFTER),
    },
  };
}
