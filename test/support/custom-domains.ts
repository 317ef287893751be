import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { DnsRecords } from './dns-server.js';
import { bearer } from './users.js';

/** Registers `hostname` in the workspace and verifies it by a TXT record on the test's DNS server; returns its id. */
export async function verifiedDomain(app: FastifyInstance, token: string, workspaceId: number, dns: DnsRecords, hostname: string, extra: Record<string, unknown> = {}): Promise<number> {
  const path = `/api/v1/workspaces/${workspaceId}/domains`;
  const created = await app.inject({ method: 'POST', url: path, headers: bearer(token), payload: { hostname, ...extra } });
  assert.equal(created.statusCode, 201, created.body);
  const { id, verification } = created.json() as { id: number; verification: { token: string } };
  dns.txt.set(`_linkforge-challenge.${hostname}`, [verification.token]);
  const verified = await app.inject({ method: 'POST', url: `${path}/${id}/verify`, headers: bearer(token) });
  assert.equal(verified.statusCode, 200, verified.body);
  return id;
}
