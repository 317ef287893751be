import { createHmac, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { LinkforgeError } from '../core/errors.js';
import type { Clock } from '../core/ports.js';

/** Three non-empty base64url segments, unpadded: anything else is refused before parsing. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_TOKEN_LENGTH = 2048;
const USER_ID = /^[1-9][0-9]{0,15}$/;
/** Tokens whose signature was checked, kept so that a client's next request skips the HMAC. */
const VERIFIED_TOKENS_MAX = 4096;

/** The claim carrying the user's session counter at issue (ADR 0024); a token without it counts as 0. */
const EPOCH_CLAIM = 'sep';
const isEpoch = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Whom a token names, and the session counter it was issued under. */
export interface TokenSubject {
  readonly userId: number;
  readonly sessionEpoch: number;
}

/** What a token verified once still has to pass at every later use: its times. */
interface VerifiedToken extends TokenSubject {
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/**
 * Issues and verifies access tokens: JWT, HS256 only, subject = user id. Time comes from the app
 * clock (jose would otherwise read the real time), so expiry is testable.
 */
export class TokenService {
  private readonly key: Uint8Array;
  private readonly ttlSeconds: number;
  /** Token text → its claims, oldest first; a token is a pure function of key and claims, so the same text is the same signature. */
  private readonly verified = new Map<string, VerifiedToken>();
  private signatureChecks = 0;

  constructor(secret: string, ttlMs: number, private readonly clock: Clock) {
    this.key = new TextEncoder().encode(secret);
    this.ttlSeconds = Math.max(1, Math.floor(ttlMs / 1000));
  }

  issue(userId: number, sessionEpoch: number): Promise<string> {
    const issuedAt = Math.floor(this.clock.now() / 1000);
    return new SignJWT({ [EPOCH_CLAIM]: sessionEpoch })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.key);
  }

  /** How long a token lives: the session cookie's Max-Age. */
  get lifetimeSeconds(): number {
    return this.ttlSeconds;
  }

  /** Signatures checked (by jose) since start: a token seen before skips the check. */
  get signaturesChecked(): number {
    return this.signatureChecks;
  }

  /**
   * The token that a browser holding `sessionToken` in its cookie must echo on writes: an HMAC of
   * it, so a page on another site, which can make the browser send the cookie but never read it,
   * cannot produce it either.
   */
  csrfTokenFor(sessionToken: string): string {
    return createHmac('sha256', this.key).update(`csrf:${sessionToken}`).digest('base64url');
  }

  /** A key of its own for another purpose (a link's unlock cookie), so that no value signed for one passes as the other. */
  keyFor(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(`key:${purpose}`).digest();
  }

  isCsrfTokenFor(sessionToken: string, presented: string): boolean {
    const expected = Buffer.from(this.csrfTokenFor(sessionToken));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * The user id the token was issued to; throws UnauthorizedError for any token we did not issue or
   * that expired. A token verified before skips jose's HMAC (WebCrypto, most of an owned create's
   * CPU) but not its time checks, which run here as jose runs them.
   */
  async verify(token: string): Promise<TokenSubject> {
    if (token.length > MAX_TOKEN_LENGTH || !JWT_SHAPE.test(token)) throw new LinkforgeError('authentication_required', 'The bearer token is malformed.');
    const known = this.verified.get(token);
    if (known !== undefined) {
      if (this.inLifetime(known)) return known;
      this.verified.delete(token);
      throw invalidToken();
    }
    const { rememberable, ...claims } = await this.checkSignature(token);
    if (rememberable) {
      if (this.verified.size >= VERIFIED_TOKENS_MAX) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, claims);
    }
    return claims;
  }

  /** `rememberable`: only the claims inLifetime checks again (our own tokens carry no nbf). */
  private async checkSignature(token: string): Promise<VerifiedToken & { readonly rememberable: boolean }> {
    this.signatureChecks++;
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'sub', 'iat'],
        currentDate: new Date(this.clock.now()),
        maxTokenAge: this.ttlSeconds, // also refuses an iat in the future
      }));
    } catch {
      throw invalidToken();
    }
    // A token living longer than the policy was not issued by us, whatever signed it.
    const epoch = payload[EPOCH_CLAIM] === undefined ? 0 : payload[EPOCH_CLAIM];
    if (payload.exp! - payload.iat! > this.ttlSeconds || !USER_ID.test(payload.sub!) || !isEpoch(epoch)) throw invalidToken();
    return {
      userId: Number(payload.sub), sessionEpoch: Number(epoch), issuedAt: payload.iat!, expiresAt: payload.exp!, rememberable: payload.nbf === undefined,
    };
  }

  /** jose's checks of exp and iat (maxTokenAge), at the app clock's second. */
  private inLifetime(token: VerifiedToken): boolean {
    const now = Math.floor(this.clock.now() / 1000);
    const age = now - token.issuedAt;
    return token.expiresAt > now && age <= this.ttlSeconds && age >= 0;
  }
}

function invalidToken(): LinkforgeError {
  return new LinkforgeError('authentication_required', 'The bearer token is invalid or expired.');
}
