import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addressPolicy } from '../../src/jobs/destination-address.js';
import { MAX_BODY_BYTES, probeDestination, type ProbeOptions } from '../../src/jobs/destination-probe.js';
import { fakeDns } from '../support/fake-dns.js';
import { eventually } from '../support/cleanup-fixtures.js';
import { closedPort, drip, startRawTarget, startTarget, withServer, type TargetServer } from '../support/target-servers.js';

/**
 * ADR 0015: local targets that answer, hang, drip, loop or flood. Private destinations are
 * allowed here (ALLOW_PRIVATE_DESTINATIONS=true) so the check may reach them; the time limit is cut
 * to 300 ms so a hanging target costs little. Every check must end on its own: a test that hangs
 * fails by the runner's timeout.
 */
const TIMEOUT_MS = 300;
const local = (overrides: Partial<ProbeOptions> = {}): ProbeOptions => ({ ...addressPolicy(fakeDns({}), true), timeoutMs: TIMEOUT_MS, ...overrides });
const outcome = (result: { status: number; outcome: string }) => ({ status: result.status, outcome: result.outcome });

describe('the destination probe', { timeout: 30_000 }, () => {
  let target: TargetServer;
  before(async () => {
    target = await startTarget((request, response) => {
      const url = new URL(request.url ?? '/', 'http://target');
      const hops = Number(url.searchParams.get('hops') ?? 0);
      if (url.pathname === '/chain' && hops > 0) return response.writeHead(302, { location: `/chain?hops=${hops - 1}` }).end();
      if (url.pathname === '/loop') return response.writeHead(302, { location: '/loop' }).end();
      if (url.pathname === '/head-405' && request.method === 'HEAD') return response.writeHead(405).end();
      response.writeHead(Number(url.searchParams.get('status') ?? 200)).end('body');
    });
  });
  after(() => target.close());

  test('answers with the status of a HEAD request: 200, 404, 500', async () => {
    for (const status of [200, 404, 500]) {
      const before = target.requests.length;
      assert.deepEqual(outcome(await probeDestination(target.url(`/?status=${status}`), local())), { status, outcome: 'answered' });
      assert.deepEqual(target.requests.slice(before).map((r) => r.method), ['HEAD']);
    }
  });

  test('asks again with GET when HEAD gets 405, and keeps the GET status', async () => {
    const before = target.requests.length;
    assert.deepEqual(outcome(await probeDestination(target.url('/head-405?status=204'), local())), { status: 204, outcome: 'answered' });
    assert.deepEqual(target.requests.slice(before).map((r) => `${r.method} ${r.path}`), ['HEAD /head-405?status=204', 'GET /head-405?status=204']);
  });

  test('follows up to three redirects, relative ones included, each hop a request of its own', async () => {
    const result = await probeDestination(target.url('/chain?hops=3'), local());
    assert.deepEqual({ ...outcome(result), redirects: result.redirects }, { status: 200, outcome: 'answered', redirects: 3 });
  });

  test('a redirect loop ends after the fourth answer with that redirect status', async () => {
    const before = target.requests.length;
    const result = await probeDestination(target.url('/loop'), local());
    assert.deepEqual({ ...outcome(result), redirects: result.redirects }, { status: 302, outcome: 'too_many_redirects', redirects: 3 });
    assert.equal(target.requests.length - before, 4);
  });

  test('a target that accepts and never answers ends in a timeout with status 0', async () => {
    await withServer(startTarget(() => {}), async (hang) => {
      assert.deepEqual(outcome(await probeDestination(hang.url('/'), local())), { status: 0, outcome: 'timeout' });
      assert.equal(hang.requests.length, 1);
    });
  });

  test('a target that drips its status line one byte at a time ends in a timeout with status 0, its socket closed', async () => {
    await withServer(startRawTarget((socket) => drip(socket, 'HTTP/1.1 200 OK\r\n', 20)), async (slow) => {
      assert.deepEqual(outcome(await probeDestination(slow.url('/'), local())), { status: 0, outcome: 'timeout' });
      await eventually(() => slow.closedSockets() === 1);
    });
  });

  test('a target that drips its body keeps the status it sent, and the socket is closed at the time limit', async () => {
    await withServer(startTarget((request, response) => {
      if (request.method === 'HEAD') return response.writeHead(405).end();
      response.writeHead(200, { 'content-type': 'text/plain' });
      drip(response, 'x', 20);
    }), async (slow) => {
      assert.deepEqual(outcome(await probeDestination(slow.url('/'), local())), { status: 200, outcome: 'answered' });
      await eventually(() => slow.closedSockets() === 2);
    });
  });

  test('a 1 MB body sent at once: exactly 32 KiB are taken, though one socket read hands over up to 64 KiB, then the socket is destroyed', async () => {
    const megabyte = Buffer.alloc(1024 * 1024, 'a');
    await withServer(startTarget((request, response) => {
      if (request.method === 'HEAD') return response.writeHead(405).end();
      response.writeHead(200, { 'content-length': megabyte.length }).end(megabyte);
    }), async (big) => {
      const result = await probeDestination(big.url('/'), local({ timeoutMs: 5000 }));
      assert.deepEqual({ ...outcome(result), bodyBytes: result.bodyBytes }, { status: 200, outcome: 'answered', bodyBytes: MAX_BODY_BYTES });
      await eventually(() => big.closedSockets() === 2);
    });
  });

  test('an endless body is read to exactly 32 KiB, then the socket is destroyed', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let written = 0;
    await withServer(startTarget((request, response) => {
      if (request.method === 'HEAD') return response.writeHead(405).end();
      response.writeHead(200);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) written += chunk.length;
      };
      response.on('drain', pump);
      pump();
    }), async (flood) => {
      const result = await probeDestination(flood.url('/'), local({ timeoutMs: 5000 }));
      assert.deepEqual(outcome(result), { status: 200, outcome: 'answered' });
      assert.equal(result.bodyBytes, MAX_BODY_BYTES);
      await eventually(() => flood.closedSockets() === 2);
      assert.ok(written < 64 * 1024 * 1024, 'the server stopped writing');
    });
  });

  test('a port where nothing listens, a reset and an unknown name are unreachable: status 0', async () => {
    assert.deepEqual(outcome(await probeDestination(`http://127.0.0.1:${await closedPort()}/`, local())), { status: 0, outcome: 'unreachable' });
    await withServer(startRawTarget((socket) => socket.resetAndDestroy()), async (reset) => {
      assert.deepEqual(outcome(await probeDestination(reset.url('/'), local())), { status: 0, outcome: 'unreachable' });
    });
    assert.deepEqual(outcome(await probeDestination('http://nowhere.example/', local())), { status: 0, outcome: 'unreachable' });
    assert.deepEqual(outcome(await probeDestination('not a url', local())), { status: 0, outcome: 'unreachable' });
  });

  test('a name is connected to at the address the resolver gave', async () => {
    const dns = fakeDns({ 'public.example': ['127.0.0.1'] });
    const result = await probeDestination(`http://public.example:${target.port}/?status=201`, local({ resolve: dns }));
    assert.deepEqual(outcome(result), { status: 201, outcome: 'answered' });
  });

  test('a DNS answer that never comes ends in a timeout', async () => {
    const result = await probeDestination('http://slow-dns.example/', local({ resolve: () => new Promise(() => {}) }));
    assert.deepEqual(outcome(result), { status: 0, outcome: 'timeout' });
  });

  test('an abort (shutdown) ends a hanging check at once with status 0', async () => {
    await withServer(startTarget(() => {}), async (hang) => {
      const stop = new AbortController();
      const checking = probeDestination(hang.url('/'), local({ timeoutMs: 60_000, signal: stop.signal }));
      await eventually(() => hang.requests.length === 1);
      stop.abort();
      assert.deepEqual(outcome(await checking), { status: 0, outcome: 'aborted' });
    });
  });
});
