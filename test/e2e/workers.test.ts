import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { eventually } from '../support/redis.js';
import { registerOverHttp, startServer, type ServerProcess } from '../support/server-process.js';
import { suiteScope } from '../support/teardown.js';

/** One request on a connection of its own: node:cluster hands each new connection to the next worker. */
function redirectOnNewConnection(server: ServerProcess, code: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server.baseUrl}/${code}`, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on('error', reject);
  });
}

async function statusesOverNewConnections(server: ServerProcess, code: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await redirectOnNewConnection(server, code));
  return statuses;
}

function workerPids(output: string): number[] {
  const pids = output.split('\n').filter((line) => line.includes('Linkforge is ready'))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
  return [...new Set(pids)];
}

describe('WORKERS=2: two server processes on one port and one SQLite file', () => {
  const suite = suiteScope();
  let server: ServerProcess;
  let token: string;

  before(async () => {
    server = await startServer(suite, { WORKERS: '2', CACHE_TTL: '1d', ANALYTICS_ENABLED: 'false' });
    // A bound for a start that hangs, not a measure of speed (see startServer).
    const bothReady = Promise.all([server.outputIncludes('"worker":1'), server.outputIncludes('"worker":2')]);
    await Promise.race([bothReady, new Promise((_, reject) => setTimeout(() => reject(new Error(`two workers did not start:\n${server.output()}`)), 60_000).unref())]);
    token = await registerOverHttp(server);
  });

  test('both workers start, and a link deleted through one answers 410 from both within one second', async () => {
    assert.equal(workerPids(server.output()).length, 2, server.output());
    const created = await fetch(`${server.baseUrl}/api/urls`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/served-twice' }),
    });
    assert.equal(created.status, 201);
    const link = (await created.json()) as { id: number; shortCode: string };
    // Connections alternate between the workers: both now hold the link in their caches.
    assert.deepEqual(await statusesOverNewConnections(server, link.shortCode, 6), [301, 301, 301, 301, 301, 301]);
    const deleted = await fetch(`${server.baseUrl}/api/urls/${link.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    assert.equal(deleted.status, 204);
    assert.ok(await eventually(async () => (await statusesOverNewConnections(server, link.shortCode, 6)).every((status) => status === 410), 1_000));
  });

  test('SIGTERM stops both workers and the primary, with exit code 0', async () => {
    const pids = workerPids(server.output());
    assert.equal(await server.stop(), 0, server.output());
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `worker ${pid} is gone`);
  });
});
