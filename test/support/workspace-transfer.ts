import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { multipartFile } from './multipart.js';
import { bearer } from './users.js';

/** A workspace's links as the export route answers them, in Linkforge's CSV or JSON Lines. */
export async function exportWorkspace(app: FastifyInstance, token: string, workspaceId: number, format: 'csv' | 'json'): Promise<string> {
  const exported = await app.inject({ method: 'POST', url: '/api/urls/export', headers: bearer(token), payload: { format, matching: { workspaceId } } });
  assert.equal(exported.statusCode, 200, exported.body);
  return exported.body;
}

/** An export with every code given `suffix`, so that it can be imported beside the links it came from. */
export function withCodesSuffixed(exported: string, format: 'csv' | 'json', suffix = 'x'): string {
  const lines = exported.split('\n');
  return (format === 'json'
    ? lines.map((line) => line.replace(/"code":"([^"]+)"/, `"code":"$1${suffix}"`))
    : lines.map((line, i) => (i === 0 || line === '' ? line : line.replace(/^([^,]+),/, `$1${suffix},`)))).join('\n');
}

/** The file, uploaded to the workspace's import route as a browser or `curl -F` would. */
export function importIntoWorkspace(app: FastifyInstance, token: string, workspaceId: number, content: string | Buffer, query = ''): Promise<LightMyRequestResponse> {
  const body = multipartFile(content);
  return app.inject({ method: 'POST', url: `/api/v1/workspaces/${workspaceId}/imports${query}`, headers: { ...bearer(token), ...body.headers }, payload: body.payload });
}
