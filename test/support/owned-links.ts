import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Composition as AppDeps } from '../../src/deps.js';
import { bearer } from './users.js';

type Json = Record<string, unknown>;

/** POST /api/urls as the token's user; the caller asserts the status. */
export function postLink(app: FastifyInstance, token: string, payload: Json): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/urls', headers: bearer(token), payload });
}

/** POST /api/urls that must succeed (201 or 200); returns the link JSON. */
export async function createLink(app: FastifyInstance, token: string, payload: Json): Promise<{ id: number; shortCode: string } & Json> {
  const response = await postLink(app, token, payload);
  assert.ok(response.statusCode === 201 || response.statusCode === 200, response.body);
  return response.json();
}

/** An anonymous link and its claim token, through the public API. */
export async function createAnonymousLink(app: FastifyInstance, url: string): Promise<{ id: number; shortCode: string; claimToken: string }> {
  const response = await app.inject({ method: 'POST', url: '/api/urls/public', payload: { url } });
  assert.equal(response.statusCode, 201, response.body);
  return response.json();
}

/** A shared workspace owned by the token's user; returns its id. */
export async function createWorkspace(app: FastifyInstance, token: string, name = 'team'): Promise<number> {
  const response = await app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: bearer(token), payload: { name } });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { id: number }).id;
}

export async function addMember(app: FastifyInstance, token: string, workspaceId: number, email: string, role: 'admin' | 'member'): Promise<void> {
  const response = await app.inject({
    method: 'POST', url: `/api/v1/workspaces/${workspaceId}/members`, headers: bearer(token), payload: { email, role },
  });
  assert.equal(response.statusCode, 201, response.body);
}

/** Follows a short code through the app, as a client would: status, Location and Cache-Control. */
export async function visit(app: FastifyInstance, code: string): Promise<{ status: number; location?: string; cacheControl?: string }> {
  const response = await app.inject({ method: 'GET', url: `/${code}` });
  return {
    status: response.statusCode,
    location: response.headers.location as string | undefined,
    cacheControl: response.headers['cache-control'] as string | undefined,
  };
}

export function linkRow(deps: AppDeps, id: number) {
  return deps.database.db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Every link row, ordered: compare two snapshots to prove a request changed nothing. */
export function allLinkRows(deps: AppDeps) {
  return deps.database.db.selectFrom('links').selectAll().orderBy('id').execute();
}

export const iso = (ms: number) => new Date(ms).toISOString();
export const HOUR = 3_600_000;
