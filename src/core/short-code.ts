import { createHash } from 'node:crypto';
import { ValidationError } from './errors.js';
import { pooledRandomBytes } from './random-pool.js';

export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const RANDOM_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const MAX_DETERMINISTIC_ATTEMPTS = 10;
export const MAX_RANDOM_ATTEMPTS = 5;

export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'api', 'app', 'assets', 'docs', 'healthz', 'readyz', 'metrics', 'static', 'admin', 'login',
  'register', 'dashboard', 'favicon.ico', 'robots.txt',
]);

const CUSTOM_CODE = /^[A-Za-z0-9_-]{3,64}$/;
// 248 = 4 × 62: bytes at or above it would favour the first 8 characters, so they are redrawn.
const UNBIASED_BYTE_LIMIT = 256 - (256 % RANDOM_CODE_ALPHABET.length);

export function isReservedWord(code: string): boolean {
  return RESERVED_WORDS.has(code.toLowerCase());
}

/**
 * Base58 of the first 128 bits of SHA-256(`C|W` or `C|W|s`), modulo 58^length, left-padded
 * with '1'. Reproducible offline, so it never skips reserved words itself: with a short
 * CODE_LENGTH the caller must treat a reserved result like a taken code and try the next attempt.
 */
export function deterministicCode(normalizedUrl: string, workspaceId: number, attempt: number, length = 10): string {
  assertNonNegativeInteger('workspaceId', workspaceId);
  assertNonNegativeInteger('attempt', attempt);
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`length must be a positive integer, got ${length}`);
  const input = attempt === 0 ? `${normalizedUrl}|${workspaceId}` : `${normalizedUrl}|${workspaceId}|${attempt}`;
  const digest = createHash('sha256').update(input, 'utf8').digest();
  const n = BigInt(`0x${digest.subarray(0, 16).toString('hex')}`);
  return toBase58(n % 58n ** BigInt(length)).padStart(length, BASE58_ALPHABET.charAt(0));
}

/** Uniform over [A-Za-z0-9] by rejection sampling; never returns a reserved word. */
export function randomCode(length = 7, randomBytes: (n: number) => Uint8Array = pooledRandomBytes): string {
  if (!Number.isInteger(length) || length < 1) throw new RangeError(`length must be a positive integer, got ${length}`);
  let code: string;
  do {
    code = drawUnbiased(length, randomBytes);
  } while (isReservedWord(code));
  return code;
}

export function validateCustomCode(code: string): void {
  if (isReservedWord(code)) {
    throw new ValidationError('custom_code_reserved', `"${code}" is a reserved word and cannot be used as a short code.`);
  }
  if (!CUSTOM_CODE.test(code)) {
    throw new ValidationError('custom_code_invalid',
      'A custom code must be 3 to 64 characters long and use only letters, digits, "-" and "_".');
  }
}

function toBase58(n: bigint): string {
  let digits = '';
  for (let rest = n; rest > 0n; rest /= 58n) {
    digits = BASE58_ALPHABET.charAt(Number(rest % 58n)) + digits;
  }
  return digits;
}

// Asks for exactly the characters still missing, so every byte consumed is either used or rejected.
function drawUnbiased(length: number, randomBytes: (n: number) => Uint8Array): string {
  let code = '';
  while (code.length < length) {
    for (const byte of randomBytes(length - code.length)) {
      if (byte < UNBIASED_BYTE_LIMIT && code.length < length) {
        code += RANDOM_CODE_ALPHABET.charAt(byte % RANDOM_CODE_ALPHABET.length);
      }
    }
  }
  return code;
}

function assertNonNegativeInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}
