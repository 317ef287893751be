import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { suiteScope } from '../support/teardown.js';

interface RawResponse { status: number; headers: Record<string, string>; body: string }

/** Writes the request bytes exactly as given (fetch would rewrite the target) and reads the answer. */
function rawRequest(baseUrl: string, head: string, body: Buffer = Buffer.alloc(0)): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [headText = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = headText.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    // write, not end: Node's server drops a request whose client half-closes before an asynchronous answer.
    socket.write(Buffer.concat([Buffer.from(`${head}\r\nConnection: close\r\n\r\n`, 'latin1'), body]));
  });
}

describe('request targets and bodies on a real socket', () => {
  let server: ServerProcess;
  let permanentCode: string;
  let expiringCode: string;
  let host: string;
  const suite = suiteScope();
  before(async () => {
    server = await startServer(suite, { RATE_LIMIT_ANON: '0', RATE_LIMIT_AUTH: '0' });
    host = new URL(server.baseUrl).host;
    const json = { 'content-type': 'application/json' };
    const registered = await fetch(`${server.baseUrl}/api/auth/register`, {
      method: 'POST', headers: json, body: JSON.stringify({ email: 'socket@example.test', password: 'correct horse battery' }),
    });
    const { token } = await registered.json() as { token: string };
    const owned = await fetch(`${server.baseUrl}/api/urls`, {
      method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body: JSON.stringify({ url: 'https://example.com/owned#/route' }),
    });
    permanentCode = (await owned.json() as { shortCode: string }).shortCode;
    const anonymous = await fetch(`${server.baseUrl}/api/urls/public`, {
      method: 'POST', headers: json, body: JSON.stringify({ url: 'https://example.com/anon' }),
    });
    expiringCode = (await anonymous.json() as { shortCode: string }).shortCode;
  });

  const redirectOf = (res: RawResponse) => ({ status: res.status, location: res.headers.location, cacheControl: res.headers['cache-control'], body: res.body });

  test('a permanent link answers 301 with max-age=300 by default', async () => {
    const res = await rawRequest(server.baseUrl, `GET /${permanentCode} HTTP/1.1\r\nHost: ${host}`);
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, 'https://example.com/owned#/route');
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
  });

  test('/{code}/ answers GET and HEAD exactly as /{code}, before and after the link is cached', async () => {
    for (const code of [permanentCode, expiringCode, 'NoSuchCode9']) {
      for (const method of ['GET', 'HEAD']) {
        const withSlash = redirectOf(await rawRequest(server.baseUrl, `${method} /${code}/ HTTP/1.1\r\nHost: ${host}`));
        const plain = redirectOf(await rawRequest(server.baseUrl, `${method} /${code} HTTP/1.1\r\nHost: ${host}`));
        assert.deepEqual(withSlash, plain, `${method} /${code}/`);
      }
    }
    assert.equal((await rawRequest(server.baseUrl, `GET /${expiringCode}/ HTTP/1.1\r\nHost: ${host}`)).status, 302);
  });

  test('an absolute-form target answers the redirect as the path form does (fast path)', async () => {
    for (const target of [`http://${host}/${permanentCode}`, `HTTP://${host}/${permanentCode}/?utm=1`, `http://other.example/${permanentCode}`]) {
      for (const method of ['GET', 'HEAD']) {
        const absolute = redirectOf(await rawRequest(server.baseUrl, `${method} ${target} HTTP/1.1\r\nHost: ${host}`));
        const plain = redirectOf(await rawRequest(server.baseUrl, `${method} /${permanentCode} HTTP/1.1\r\nHost: ${host}`));
        assert.deepEqual(absolute, plain, `${method} ${target}`);
        assert.equal(absolute.status, 301);
      }
    }
  });

  test('an absolute-form target reaches the Fastify routes as the path form does', async () => {
    const health = await rawRequest(server.baseUrl, `GET http://${host}/healthz HTTP/1.1\r\nHost: ${host}`);
    assert.equal(health.status, 200);
    const missing = await rawRequest(server.baseUrl, `GET http://${host}/api HTTP/1.1\r\nHost: ${host}`);
    assert.equal(missing.status, 404);
    assert.equal(JSON.parse(missing.body).code, 'route_not_found');
    const payload = Buffer.from(JSON.stringify({ url: 'https://example.com/absolute' }));
    const created = await rawRequest(server.baseUrl,
      `POST http://${host}/api/urls/public HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${payload.length}`, payload);
    assert.equal(created.status, 201, created.body);
    const code = (JSON.parse(created.body) as { shortCode: string }).shortCode;
    assert.equal((await rawRequest(server.baseUrl, `GET http://${host}/${code} HTTP/1.1\r\nHost: ${host}`)).status, 302);
  });

  test('header abuse gets 400 or 431 and the server keeps answering (RELIABILITY X-10)', async () => {
    for (const target of [`/${permanentCode}`, '/healthz']) {
      const twoHosts = await rawRequest(server.baseUrl, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example`);
      assert.equal(twoHosts.status, 400, `two Host headers on ${target}`);
      assert.equal(JSON.parse(twoHosts.body).code, 'host_header_repeated');
      assert.equal(twoHosts.headers.connection, 'close');
    }
    assert.equal((await rawRequest(server.baseUrl, `GET /${permanentCode} HTTP/1.1`)).status, 400, 'no Host header');
    assert.equal((await rawRequest(server.baseUrl, `GET /${permanentCode} HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(17_000)}`)).status, 431);
    const manyHeaders = Array.from({ length: 200 }, (_, i) => `X-Header-${i}: v`).join('\r\n');
    assert.equal((await rawRequest(server.baseUrl, `GET /${permanentCode} HTTP/1.1\r\nHost: ${host}\r\n${manyHeaders}`)).status, 301);
    assert.equal((await rawRequest(server.baseUrl, `GET /${permanentCode} HTTP/1.1\r\nhost: ${host}`)).status, 301, 'one Host header, in any case, is fine');
  });

  test('a body with a Latin-1 byte is 400 on the socket too, and a declared latin1 charset is 415', async () => {
    const latin1 = Buffer.from('{"url":"https://example.com/m\xe4dchen"}', 'latin1');
    const invalid = await rawRequest(server.baseUrl,
      `POST /api/urls/public HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${latin1.length}`, latin1);
    assert.equal(invalid.status, 400);
    assert.equal(invalid.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(JSON.parse(invalid.body).code, 'body_not_utf8');
    const declared = await rawRequest(server.baseUrl,
      `POST /api/urls/public HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json; charset=latin1\r\nContent-Length: ${latin1.length}`, latin1);
    assert.equal(declared.status, 415);
    assert.equal(JSON.parse(declared.body).code, 'media_type_unsupported');
  });
});
