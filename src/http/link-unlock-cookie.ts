import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const COOKIE = 'linkforge_unlock';
export const UNLOCK_MAX_AGE_SECONDS = 3600;

export interface UnlockCookieOptions {
  /** A server secret of its own purpose (derived from the token secret). */
  readonly key: Buffer;
  /** Secure when the public base URL is https. */
  readonly secure: boolean;
}

/**
 * The proof that this browser gave a link's password: an expiry and an HMAC over the link id, the
 * password's hash and that expiry, so it opens no other link and dies with a password change. It
 * is scoped to the link's path, so no other page of the site ever receives it.
 */
export class UnlockCookie {
  constructor(private readonly options: UnlockCookieOptions) {}

  /** The Set-Cookie value for an unlocked link. */
  issue(code: string, linkId: number, passwordHash: string, now: number): string {
    const expires = Math.floor(now / 1000) + UNLOCK_MAX_AGE_SECONDS;
    const value = `${expires}.${this.mac(linkId, passwordHash, expires)}`;
    return `${COOKIE}=${value}; Path=/${code}; Max-Age=${UNLOCK_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${this.options.secure ? '; Secure' : ''}`;
  }

  /** Whether the request carries an unexpired cookie made for this link and this password. */
  isValid(req: IncomingMessage, linkId: number, passwordHash: string, now: number): boolean {
    for (const value of cookieValues(req.headers.cookie, COOKIE)) {
      const [expiresText = '', mac = ''] = value.split('.');
      const expires = Number(expiresText);
      if (!/^\d{1,12}$/.test(expiresText) || expires * 1000 <= now) continue;
      const expected = Buffer.from(this.mac(linkId, passwordHash, expires));
      const given = Buffer.from(mac);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    }
    return false;
  }

  private mac(linkId: number, passwordHash: string, expires: number): string {
    return createHmac('sha256', this.options.key).update(`${linkId}\n${passwordHash}\n${expires}`).digest('base64url');
  }
}

function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined) return [];
  return header.split(';').map((part) => part.trim()).filter((part) => part.startsWith(`${name}=`)).map((part) => part.slice(name.length + 1));
}
