import { STATUS_CODES } from 'node:http';
import { Type } from '@sinclair/typebox';
import { ERROR_CATALOGUE, type ErrorCode } from '../core/error-codes.js';

export const ProblemJson = Type.Object({
  type: Type.String({ format: 'uri' }),
  title: Type.String(),
  status: Type.Integer(),
  detail: Type.String(),
  code: Type.Unsafe<ErrorCode>({ type: 'string', enum: Object.keys(ERROR_CATALOGUE), description: 'Stable machine-readable reason.' }),
}, { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details.' });

/** Reference to the shared problem schema for a route's error responses. */
export const problemRef = Type.Ref('Problem');

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

export const RETRY_AFTER = { 'retry-after': { type: 'integer', description: 'Seconds to wait before retrying.' } };
const WWW_AUTHENTICATE = { 'www-authenticate': { type: 'string', description: '`Bearer`.' } };

/**
 * One error response in the `content` form, so that both Fastify's serializer and the OpenAPI
 * document know the body is `application/problem+json` (the plain form would say application/json).
 */
export function problemResponse(status: number, description = STATUS_CODES[status] ?? 'Error') {
  const headers = status === 429 || status === 503 ? RETRY_AFTER : status === 401 ? WWW_AUTHENTICATE : undefined;
  return { description, ...(headers && { headers }), content: { [PROBLEM_MEDIA_TYPE]: { schema: problemRef } } };
}

export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(statuses.map((status) => [status, problemResponse(status)]));
}
