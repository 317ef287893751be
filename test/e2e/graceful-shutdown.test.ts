import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer } from '../support/server-process.js';
import { onTeardown } from '../support/teardown.js';

const CLIENTS = 16;
const GRACE_MS = 10_000;

interface Outcome {
  readonly method: string;
  readonly status?: number;
  readonly connectionClose?: boolean;
  readonly error?: string;
  /** The request's bytes were handed to the kernel before it failed. */
  readonly sent: boolean;
}

function send(agent: http.Agent, port: number, method: 'GET' | 'POST', path: string, body?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    let sent = false;
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ method, status: res.statusCode, connectionClose: res.headers.connection === 'close', sent: true }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ method, error: error.code ?? error.message, sent: true }));
    });
    req.on('finish', () => { sent = true; });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ method, error: error.code ?? error.message, sent }));
    req.end(body);
  });
}

// The drain of docs/operations.md, "Stopping and logging".
test('SIGTERM under keep-alive load resets no request: each gets an answer, or its connection is refused before it is sent', { timeout: 60_000 }, async (context) => {
  const server = await startServer(context, { RATE_LIMIT_ANON: '0', SHUTDOWN_GRACE: `${GRACE_MS}ms` });
  const port = Number(new URL(server.baseUrl).port);
  const link = await fetch(`${server.baseUrl}/api/urls/public`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/drain' }),
  });
  const { shortCode } = (await link.json()) as { shortCode: string };

  let signalled = false;
  let stop = false;
  const afterSignal: Outcome[] = [];
  const beforeSignal: Outcome[] = [];
  let warmedUp!: () => void;
  const fourHundredAnswered = new Promise<void>((resolve) => { warmedUp = resolve; });
  const client = async (id: number) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let n = 0; !stop && n < 20_000; n++) {
      const outcome = n % 2 === 0
        ? await send(agent, port, 'GET', `/${shortCode}`)
        : await send(agent, port, 'POST', '/api/urls/public', JSON.stringify({ url: `https://example.com/drain/${id}/${n}` }));
      (signalled ? afterSignal : beforeSignal).push(outcome);
      if (beforeSignal.length === 400) warmedUp();
      if (signalled && outcome.error !== undefined && !outcome.sent) break; // the server no longer listens
    }
    agent.destroy();
  };
  const clients = Array.from({ length: CLIENTS }, (_, id) => client(id));

  await fourHundredAnswered;
  signalled = true;
  const signalledAt = Date.now();
  const exitCode = await server.stop();
  const exitMs = Date.now() - signalledAt;
  stop = true;
  await Promise.all(clients);

  const all = [...beforeSignal, ...afterSignal];
  assert.deepEqual(all.filter((o) => o.error !== undefined && o.sent), [], 'requests reset after their bytes were sent');
  for (const o of all.filter((o) => o.error !== undefined)) assert.equal(o.error, 'ECONNREFUSED');
  for (const o of all.filter((o) => o.error === undefined)) assert.equal(o.status, o.method === 'GET' ? 302 : 201);
  assert.ok(afterSignal.some((o) => o.status !== undefined && o.connectionClose), 'requests arriving during the drain are answered with Connection: close');
  assert.equal(exitCode, 0);
  assert.ok(exitMs < GRACE_MS, `exit took ${exitMs} ms`);
});

// A terminal's Ctrl-C reaches the whole process group, and `npm start` passes it on as well: the
// server hears SIGINT twice, and the second must not cut the drain short.
for (const signals of [['SIGTERM'], ['SIGINT', 'SIGINT']] as const) {
  test(`a request already running at ${signals.join(' then ')} is answered in full with Connection: close`, { timeout: 60_000 }, async (context) => {
    const server = await startServer(context, { SHUTDOWN_GRACE: `${GRACE_MS}ms` });
    const port = Number(new URL(server.baseUrl).port);
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', (code) => resolve(code)));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    onTeardown(context, () => agent.destroy());
    const body = JSON.stringify({ url: 'https://example.com/in-flight' });
    const answer = new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1', port, method: 'POST', path: '/api/urls/public', agent,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      }, resolve);
      req.on('error', reject);
      // Half the body now: the server has the request and waits for the rest when the signal comes.
      req.write(body.slice(0, 10));
      void (async () => {
        await server.outputIncludes('incoming request'); // Fastify's line once it has the request's head
        server.child.kill(signals[0]);
        await server.outputIncludes('shutting down');
        for (const again of signals.slice(1)) server.child.kill(again);
        req.end(body.slice(10));
      })();
    });
    const res = await answer;
    res.resume();
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers.connection, 'close');
    assert.equal(await exited, 0);
  });
}
