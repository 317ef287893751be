import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LinkforgeError } from '../core/errors.js';

/**
 * Fastify decodes JSON bodies with `buffer.toString('utf8')`, which turns every invalid byte into
 * U+FFFD and ignores a declared charset: two different passwords sent as Latin-1 (`p\xE4ss`,
 * `p\xF6ss`) would become the same text. This parser reads the raw bytes and refuses, never repairs
 * (ADR 0008): a charset other than UTF-8 (415), bytes that are not UTF-8, a byte order mark,
 * a key given twice (400). What is left goes to Fastify's own JSON parser, so `__proto__` and
 * `constructor.prototype` keys are refused exactly as before, with the same errors.
 */
export function registerStrictJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    const refusal = charsetRefusal(request) ?? encodingRefusal(bytes);
    if (refusal) return done(refusal, undefined);
    const text = bytes.toString('utf8');
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const duplicate = findDuplicateKey(text);
      if (duplicate !== undefined) {
        return done(new LinkforgeError('body_key_duplicated',
          `The body gives the key "${duplicate.slice(0, 64)}" more than once in one object.`), undefined);
      }
      done(null, value);
    });
  });
}

const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)/i;

function charsetRefusal(request: FastifyRequest): LinkforgeError | undefined {
  const charset = CHARSET_PARAMETER.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset === undefined || charset === 'utf-8' || charset === 'utf8') return undefined;
  return new LinkforgeError('media_type_unsupported',
    `Request bodies must be JSON in UTF-8; charset=${charset.slice(0, 40)} is not supported.`);
}

function encodingRefusal(bytes: Buffer): LinkforgeError | undefined {
  if (!isUtf8(bytes)) {
    return new LinkforgeError('body_not_utf8');
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new LinkforgeError('body_bom_not_allowed');
  }
  return undefined;
}

/**
 * JSON.parse keeps the last of repeated keys while other parsers (a proxy, a WAF, a log reader) may
 * keep the first: a body that says two things is refused. Runs on text JSON.parse has accepted,
 * so it only has to tell keys from values and skip over strings.
 */
export function findDuplicateKey(json: string): string | undefined {
  const open: Array<Set<string> | undefined> = []; // a key set per open object, undefined per array
  let expectingKey = false;
  for (let i = 0; i < json.length; i++) {
    const character = json[i];
    if (character === '"') {
      const end = closingQuote(json, i);
      const keys = open.at(-1);
      if (expectingKey && keys) {
        const key = JSON.parse(json.slice(i, end + 1)) as string; // decodes escapes: "a" and "\u0061" are one key
        if (keys.has(key)) return key;
        keys.add(key);
        expectingKey = false;
      }
      i = end;
    } else if (character === '{') {
      open.push(new Set());
      expectingKey = true;
    } else if (character === '[') {
      open.push(undefined);
    } else if (character === '}' || character === ']') {
      open.pop();
    } else if (character === ',') {
      expectingKey = open.at(-1) !== undefined;
    }
  }
  return undefined;
}

function closingQuote(json: string, opening: number): number {
  let i = opening + 1;
  while (json[i] !== '"') i += json[i] === '\\' ? 2 : 1;
  return i;
}
