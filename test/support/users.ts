import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';

let counter = 0;

/** A fresh address per call, unique across test files running in parallel. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

export const DEFAULT_PASSWORD = 'correct horse battery';

export interface RegisteredUser {
  readonly token: string;
  readonly user: { id: number; email: string; role: string };
  readonly personalWorkspaceId: number;
}

/** Registers through the API and looks up the personal workspace; fails the test on any error. */
export async function registerUser(app: FastifyInstance, email = uniqueEmail(), password = DEFAULT_PASSWORD): Promise<RegisteredUser> {
  const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password } });
  assert.equal(registered.statusCode, 201, registered.body);
  const { token, user } = registered.json() as { token: string; user: RegisteredUser['user'] };
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
  assert.equal(me.statusCode, 200, me.body);
  const personal = (me.json() as { workspaces: Array<{ id: number; isPersonal: boolean }> }).workspaces.find((w) => w.isPersonal);
  assert.ok(personal, 'a registered user has a personal workspace');
  return { token, user, personalWorkspaceId: personal.id };
}

/** Creates an API key in the workspace with the user's token; returns the secret (`lfk_…`). */
export async function createApiKey(app: FastifyInstance, token: string, workspaceId: number, name = 'test key'): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${workspaceId}/api-keys`,
    headers: { authorization: `Bearer ${token}` },
    payload: { name },
  });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { key: string }).key;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
