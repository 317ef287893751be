import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import {
  BASE58_ALPHABET, MAX_DETERMINISTIC_ATTEMPTS, RANDOM_CODE_ALPHABET, RESERVED_WORDS,
  deterministicCode, isReservedWord, randomCode, validateCustomCode,
} from '../../src/core/short-code.js';
import { ValidationError } from '../../src/core/errors.js';

/** mulberry32: a tiny seeded generator, so "random" codes can be replayed in tests. */
function seededRandomBytes(seed: number): (n: number) => Uint8Array {
  let state = seed >>> 0;
  return (n) => Uint8Array.from({ length: n }, () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) & 0xff;
  });
}

/** Serves a fixed byte sequence in order, failing loudly if the code asks for more than it holds. */
function scriptedRandomBytes(bytes: number[]): (n: number) => Uint8Array {
  let next = 0;
  return (n) => {
    assert.ok(next + n <= bytes.length, `asked for ${n} bytes with only ${bytes.length - next} left`);
    next += n;
    return Uint8Array.from(bytes.slice(next - n, next));
  };
}

const indexesOf = (code: string) => [...code].map((character) => RANDOM_CODE_ALPHABET.indexOf(character));

function decodeBase58(code: string): bigint {
  return [...code].reduce((total, character) => total * 58n + BigInt(BASE58_ALPHABET.indexOf(character)), 0n);
}

function expectedNumber(input: string, length: number): bigint {
  const first16 = createHash('sha256').update(input, 'utf8').digest().subarray(0, 16);
  return first16.reduce((total, byte) => total * 256n + BigInt(byte), 0n) % 58n ** BigInt(length);
}

describe('deterministic codes (docs/specification.md)', () => {
  const vectors: Array<[string, number, number, string]> = [
    ['http://example.com/path', 42, 0, 'z6147ftZdh'],
    ['http://example.com/path', 42, 1, 'yKvjU5hwn2'],
    ['http://example.com/path', 7, 0, 'SYN8SzPiWd'],
    ['http://example.com/api/users?id=123&name=john', 42, 0, 'THw9d2Cf2Y'],
  ];
  for (const [url, workspaceId, attempt, code] of vectors) {
    test(`${url} in workspace ${workspaceId}, attempt ${attempt}, is ${code}`, () => {
      assert.equal(deterministicCode(url, workspaceId, attempt), code);
    });
  }

  test('every attempt gives a different code for the same URL and workspace', () => {
    const codes = Array.from({ length: MAX_DETERMINISTIC_ATTEMPTS }, (_, attempt) =>
      deterministicCode('http://example.com/path', 42, attempt));
    assert.equal(new Set(codes).size, MAX_DETERMINISTIC_ATTEMPTS);
  });

  test('different workspaces give different codes for the same URL', () => {
    const codes = Array.from({ length: 1000 }, (_, workspaceId) => deterministicCode('http://example.com/path', workspaceId + 1, 0));
    assert.equal(new Set(codes).size, 1000);
  });

  test('the code is the hash number modulo 58^L written in Base58, padded with "1" to exactly L characters', () => {
    fc.assert(fc.property(
      fc.string({ unit: 'grapheme', maxLength: 200 }), fc.nat(), fc.nat(MAX_DETERMINISTIC_ATTEMPTS - 1), fc.integer({ min: 1, max: 24 }),
      (url, workspaceId, attempt, length) => {
        const code = deterministicCode(url, workspaceId, attempt, length);
        const input = attempt === 0 ? `${url}|${workspaceId}` : `${url}|${workspaceId}|${attempt}`;
        return code.length === length
          && [...code].every((character) => BASE58_ALPHABET.includes(character))
          && decodeBase58(code) === expectedNumber(input, length);
      }), { numRuns: 3000 });
  });

  test('a small number is left-padded with the zero digit "1"', () => {
    const workspaceId = Array.from({ length: 5000 }, (_, id) => id).find((id) =>
      expectedNumber(`http://example.com/path|${id}`, 3) < 58n);
    assert.ok(workspaceId !== undefined, 'premise: some workspace hashes below 58');
    assert.match(deterministicCode('http://example.com/path', workspaceId, 0, 3), /^11[1-9A-HJ-NP-Za-km-z]$/);
  });

  test('the default length is 10', () => {
    assert.equal(deterministicCode('http://example.com/', 1, 0).length, 10);
  });

  test('nonsensical workspace ids, attempts and lengths are programming errors', () => {
    assert.throws(() => deterministicCode('http://example.com/', -1, 0), RangeError);
    assert.throws(() => deterministicCode('http://example.com/', 1.5, 0), RangeError);
    assert.throws(() => deterministicCode('http://example.com/', 1, -1), RangeError);
    assert.throws(() => deterministicCode('http://example.com/', 1, 0, 0), RangeError);
  });
});

describe('random codes', () => {
  test('a random code has 7 characters from [A-Za-z0-9] by default', () => {
    for (let i = 0; i < 200; i += 1) assert.match(randomCode(), /^[A-Za-z0-9]{7}$/);
  });

  test('a random code has exactly the requested length and only alphanumeric characters', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 64 }), fc.integer(), (length, seed) =>
      new RegExp(`^[A-Za-z0-9]{${length}}$`).test(randomCode(length, seededRandomBytes(seed)))), { numRuns: 2000 });
  });

  test('the alphabet is exactly the 62 letters and digits', () => {
    assert.equal(RANDOM_CODE_ALPHABET.length, 62);
    assert.equal(new Set(RANDOM_CODE_ALPHABET).size, 62);
    assert.match(RANDOM_CODE_ALPHABET, /^[A-Za-z0-9]+$/);
  });

  test('the same seeded byte source gives the same code, and another seed gives another code', () => {
    assert.equal(randomCode(7, seededRandomBytes(1)), randomCode(7, seededRandomBytes(1)));
    assert.equal(randomCode(32, seededRandomBytes(2)), randomCode(32, seededRandomBytes(2)));
    assert.notEqual(randomCode(32, seededRandomBytes(1)), randomCode(32, seededRandomBytes(2)));
  });

  test('bytes 248 and above are skipped and bytes below map to the alphabet modulo 62', () => {
    const code = randomCode(7, scriptedRandomBytes([248, 0, 255, 61, 62, 247, 249, 123, 186, 1]));
    assert.deepEqual(indexesOf(code), [0, 61, 0, 61, 61, 0, 1]);
  });

  test('every byte value below 248 is used equally, so no character is favoured', () => {
    const everyByteTwice = [...Array.from({ length: 256 }, (_, byte) => byte), ...Array.from({ length: 256 }, (_, byte) => byte)];
    const code = randomCode(496, scriptedRandomBytes(everyByteTwice));
    const counts = new Map<string, number>();
    for (const character of code) counts.set(character, (counts.get(character) ?? 0) + 1);
    assert.equal(counts.size, 62);
    assert.deepEqual(new Set(counts.values()), new Set([8]));
  });

  test('a draw that spells a reserved word is thrown away', () => {
    const metrics = indexesOf('MeTrics');
    const next = indexesOf('abc1234');
    assert.equal(randomCode(7, scriptedRandomBytes([...metrics, ...next])), 'abc1234');
  });

  test('real random codes are spread evenly over all 62 characters', () => {
    const counts = new Map<string, number>(Array.from(RANDOM_CODE_ALPHABET, (character) => [character, 0]));
    const draws = 1000;
    for (let i = 0; i < draws; i += 1) {
      for (const character of randomCode(62)) counts.set(character, (counts.get(character) ?? 0) + 1);
    }
    const expected = draws;
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 61 degrees of freedom: mean 61, and 150 is beyond p = 1e-9; modulo bias alone would score about 400.
    assert.ok(chiSquare < 150, `chi-square ${chiSquare.toFixed(1)} is too high`);
    const firstEight = [...RANDOM_CODE_ALPHABET.slice(0, 8)].reduce((sum, character) => sum + (counts.get(character) ?? 0), 0) / 8;
    assert.ok(firstEight / expected < 1.1, `the first eight characters appear ${(firstEight / expected).toFixed(3)}× as often as expected`);
    assert.ok([...counts.values()].every((count) => count > 0));
  });
});

describe('reserved words', () => {
  test('the reserved list is exactly the one in docs/specification.md', () => {
    assert.deepEqual([...RESERVED_WORDS].sort(), ['admin', 'api', 'app', 'assets', 'dashboard', 'docs', 'favicon.ico', 'healthz',
      'login', 'metrics', 'readyz', 'register', 'robots.txt', 'static']);
  });

  test('reserved words match in any case', () => {
    for (const word of ['api', 'API', 'Docs', 'hEaLtHz', 'FAVICON.ICO', 'Robots.txt']) assert.equal(isReservedWord(word), true, word);
  });

  test('words that only contain a reserved word are not reserved', () => {
    for (const word of ['apis', 'my-api', 'docs2', 'adminx', 'favicon']) assert.equal(isReservedWord(word), false, word);
  });
});

describe('custom codes', () => {
  const codeOf = (code: string) => {
    try {
      validateCustomCode(code);
    } catch (error) {
      assert.ok(error instanceof ValidationError);
      return error.code;
    }
    return 'accepted';
  };

  test('letters, digits, "-" and "_" from 3 to 64 characters are accepted', () => {
    for (const code of ['abc', 'my-link_1', 'A1-', '___', 'x'.repeat(64)]) assert.equal(codeOf(code), 'accepted', code);
  });

  test('codes that are too short, too long or use other characters are refused', () => {
    for (const code of ['', 'ab', 'x'.repeat(65), 'a b', 'ä', 'abä', 'a/b', 'a.b', 'a%20b', 'abc\n', 'abc\u2028', 'ab?']) {
      assert.equal(codeOf(code), 'custom_code_invalid', JSON.stringify(code));
    }
  });

  test('every reserved word is refused in any case, with a message naming it', () => {
    for (const word of RESERVED_WORDS) {
      for (const variant of [word, word.toUpperCase(), word[0]?.toUpperCase() + word.slice(1)]) {
        assert.throws(() => validateCustomCode(variant), { code: 'custom_code_reserved', message: new RegExp(`"${variant.replace('.', '\\.')}"`) });
      }
    }
  });

  test('the invalid-code message explains the rule', () => {
    assert.throws(() => validateCustomCode('a b'),
      { message: 'A custom code must be 3 to 64 characters long and use only letters, digits, "-" and "_".' });
  });

  test('any string either passes both rules or is refused with one of the two codes', () => {
    const mostlyValid = fc.string({
      unit: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...'abcXYZ019_-') },
        { weight: 1, arbitrary: fc.constantFrom(' ', '.', '/', 'ä', '\n', '\u2028', '%', '\u0000', '😀') },
      ),
      maxLength: 80,
    });
    const reservedInAnyCase = fc.tuple(fc.constantFrom(...RESERVED_WORDS), fc.nat()).map(([word, seed]) =>
      [...word].map((character, index) => ((seed >> index) & 1 ? character.toUpperCase() : character)).join(''));
    fc.assert(fc.property(fc.oneof(mostlyValid, reservedInAnyCase), (code) => {
      const outcome = codeOf(code);
      const valid = /^[A-Za-z0-9_-]{3,64}$/.test(code) && !RESERVED_WORDS.has(code.toLowerCase());
      return valid ? outcome === 'accepted' : outcome === 'custom_code_invalid' || outcome === 'custom_code_reserved';
    }), { numRuns: 3000 });
  });
});
