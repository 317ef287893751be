import { jwtVerify, SignJWT } from 'jose';
import { LinkforgeError } from '../core/errors.js';
import type { Clock } from '../core/ports.js';

/** Three non-empty base64url segments, unpadded: anything else is refused before parsing. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_TOKEN_LENGTH = 2048;
const USER_ID = /^[1-9][0-9]{0,15}$/;

/**
 * Issues and verifies access tokens: JWT, HS256 only, subject = user id. Time comes from the app
 * clock (jose would otherwise read the real time), so expiry is testable.
 */
export class TokenService {
  private readonly key: Uint8Array;
  private readonly ttlSeconds: number;

  constructor(secret: string, ttlMs: number, private readonly clock: Clock) {
    this.key = new TextEncoder().encode(secret);
    this.ttlSeconds = Math.max(1, Math.floor(ttlMs / 1000));
  }

  issue(userId: number): Promise<string> {
    const issuedAt = Math.floor(this.clock.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.key);
  }

  /** The user id the token was issued to; throws UnauthorizedError for any token we did not issue or that expired. */
  async verify(token: string): Promise<number> {
    if (token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) throw new LinkforgeError('authentication_required', 'The bearer token is malformed.');
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'sub', 'iat'],
        currentDate: new Date(this.clock.now()),
        maxTokenAge: this.ttlSeconds, // also refuses an iat in the future
      }));
    } catch {
      throw new LinkforgeError('authentication_required', 'The bearer token is invalid or expired.');
    }
    // A token living longer than the policy was not issued by us, whatever signed it.
    if (payload.exp! - payload.iat! > this.ttlSeconds || !USER_ID.test(payload.sub!)) {
      throw new LinkforgeError('authentication_required', 'The bearer token is invalid or expired.');
    }
    return Number(payload.sub);
  }
}
