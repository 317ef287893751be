import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

/** Fails with `what` when the request has not returned at all: a hang, not a slow answer. */
export async function returned(request: Promise<LightMyRequestResponse>, what: string): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not return`)), 15_000); });
  try {
    return await Promise.race([request, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer of a database that cannot serve now: 503 with Retry-After, never a 500. */
export function assertUnavailable(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.statusCode, 503, `${what}: ${response.body}`);
  assert.equal(response.headers['retry-after'], '5', what);
}
