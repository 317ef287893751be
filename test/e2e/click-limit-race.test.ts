import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../support/postgres.js';
import { registerOverHttp, startServer, type ServerProcess } from '../support/server-process.js';
import { postgresEnv } from '../support/test-app.js';
import { onTeardown, type TeardownScope } from '../support/teardown.js';

const PERSON = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SERVER_ENV = { RATE_LIMIT_AUTH: '0', RATE_LIMIT_ANON: '0' };

/** Two server processes on one database: a fresh PostgreSQL database, or one SQLite file. */
async function twoProcesses(scope: TeardownScope, database: 'postgres' | 'sqlite'): Promise<[ServerProcess, ServerProcess]> {
  let env: Record<string, string>;
  if (database === 'postgres') {
    const postgres = await createTestDatabase();
    onTeardown(scope, () => postgres.drop());
    env = { ...SERVER_ENV, ...postgresEnv(postgres) };
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-race-'));
    onTeardown(scope, () => fs.rmSync(dataDir, { recursive: true, force: true }));
    env = { ...SERVER_ENV, DATA_DIR: dataDir };
  }
  // One after the other: the second finds the schema the first migrated.
  const a = await startServer(scope, env);
  const b = await startServer(scope, env);
  return [a, b];
}

async function follow(server: ServerProcess, code: string): Promise<{ status: number; location: string | null }> {
  const response = await fetch(`${server.baseUrl}/${code}`, { redirect: 'manual', headers: { 'user-agent': PERSON, accept: 'application/json' } });
  const body = response.status === 410 ? ((await response.json()) as { reason?: string }) : (await response.body?.cancel(), undefined);
  return { status: response.status, location: response.headers.get('location') ?? (body?.reason === undefined ? null : `410:${body.reason}`) };
}

describe('100 people at once on a link limited to 10, across two server processes on one database', () => {
  for (const database of ['postgres', 'sqlite'] as const) {
    test(`on ${database}: exactly 10 are redirected and 90 are told it is used up; with a fallback URL, 90 go there`, async (context) => {
      const [a, b] = await twoProcesses(context, database);
      const token = await registerOverHttp(a);
      const create = (payload: Record<string, unknown>) => fetch(`${a.baseUrl}/api/urls`, {
        method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(payload),
      }).then(async (response) => {
        assert.equal(response.status, 201);
        return (await response.json()) as { id: number; shortCode: string };
      });
      const plain = await create({ url: 'https://example.com/ten-seats', maxClicks: 10 });
      const withFallback = await create({ url: 'https://example.com/ten-more', maxClicks: 10, fallbackUrl: 'https://example.com/full' });
      // Each process has read the link once before the rush, so both answer from their caches.
      for (const server of [a, b]) assert.equal((await fetch(`${server.baseUrl}/${plain.shortCode}`, { method: 'HEAD', redirect: 'manual' })).status, 302);

      const rush = (code: string) => Promise.all(Array.from({ length: 100 }, (_, i) => follow(i % 2 === 0 ? a : b, code)));
      const tally = (answers: Array<{ status: number; location: string | null }>) => {
        const counts: Record<string, number> = {};
        for (const answer of answers) counts[`${answer.status} ${answer.location}`] = (counts[`${answer.status} ${answer.location}`] ?? 0) + 1;
        return counts;
      };
      assert.deepEqual(tally(await rush(plain.shortCode)), { '302 https://example.com/ten-seats': 10, '410 410:limit_reached': 90 });
      assert.deepEqual(tally(await rush(withFallback.shortCode)), { '302 https://example.com/ten-more': 10, '302 https://example.com/full': 90 });

      const read = await fetch(`${b.baseUrl}/api/urls/${plain.id}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(((await read.json()) as { clicksLeft: number }).clicksLeft, 0);
    });
  }
});
