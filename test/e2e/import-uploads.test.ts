import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { onTeardown } from '../support/teardown.js';

const BOUNDARY = 'linkforge-e2e';
const FILE_HEAD = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="links.csv"\r\nContent-Type: text/csv\r\n\r\n`;

async function registered(server: ServerProcess): Promise<{ token: string; workspaceId: number }> {
  const email = `uploader-${process.pid}-${Date.now()}@example.test`;
  const response = await fetch(`${server.baseUrl}/api/auth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  assert.equal(response.status, 201);
  const { token } = (await response.json()) as { token: string };
  const me = (await (await fetch(`${server.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { workspaces: Array<{ id: number }> };
  return { token, workspaceId: me.workspaces[0]!.id };
}

/** A raw HTTP/1.1 upload: the head and `body` are sent, then the socket stays open until the test closes it. */
function rawUpload(server: ServerProcess, user: { token: string; workspaceId: number }, contentLength: number, body: string) {
  const { hostname, port } = new URL(server.baseUrl);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk) => { received += chunk; });
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  socket.on('error', () => { /* the server may cut a connection it answered */ });
  socket.write(`POST /api/v1/workspaces/${user.workspaceId}/imports HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${user.token}\r\n`
    + `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${contentLength}\r\n\r\n${body}`);
  // The head of the answer, or what came before the connection closed without one.
  const answered = new Promise<string>((resolve) => {
    socket.on('data', () => { if (received.includes('\r\n\r\n')) resolve(received); });
    socket.on('close', () => resolve(received));
  });
  return { socket, closed, answered: () => answered };
}

const spoolOf = (dataDir: string) => path.join(dataDir, 'import-spool');

async function untilSpoolHolds(dataDir: string, minBytes: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const files = fs.readdirSync(spoolOf(dataDir));
    if (files.some((file) => fs.statSync(path.join(spoolOf(dataDir), file)).size >= minBytes)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`the spool never held ${minBytes} bytes`);
}

test('an upload over IMPORT_MAX_BYTES is answered 413 and, once the client gives up, leaves nothing in the spool', { timeout: 60_000 }, async (context) => {
  const server = await startServer(context, { IMPORT_MAX_BYTES: '65536' });
  const user = await registered(server);
  const upload = rawUpload(server, user, 10 * 1024 * 1024, `${FILE_HEAD}keyword,url\n`);
  upload.socket.write('x'.repeat(200_000));
  const answer = await upload.answered();
  assert.match(answer, /^HTTP\/1\.1 413 /);
  assert.match(answer, /"code":"body_too_large"/);
  upload.socket.destroy();
  await upload.closed;
  assert.deepEqual(fs.readdirSync(spoolOf(server.dataDir)), []);
  assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
});

test('a body that ends without its closing boundary is answered, not left hanging', { timeout: 60_000 }, async (context) => {
  const server = await startServer(context);
  const user = await registered(server);
  const body = `${FILE_HEAD}keyword,url\nab,https://example.com/a\n`;
  const upload = rawUpload(server, user, Buffer.byteLength(body), body);
  const answer = await upload.answered();
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /"code":"multipart_invalid"/);
  upload.socket.destroy();
  assert.deepEqual(fs.readdirSync(spoolOf(server.dataDir)), []);
});

test('SIGTERM during an upload ends it with a 503 and the server exits 0 without using up its grace', { timeout: 60_000 }, async (context) => {
  const server = await startServer(context, { SHUTDOWN_GRACE: '20s', IMPORT_UPLOAD_IDLE_TIMEOUT: '60s' });
  const user = await registered(server);
  const upload = rawUpload(server, user, 10 * 1024 * 1024, `${FILE_HEAD}keyword,url\n${'ab,https://example.com/a\n'.repeat(1000)}`);
  await untilSpoolHolds(server.dataDir, 1);
  const dataDir = server.dataDir;
  const spooled = fs.readdirSync(spoolOf(dataDir));
  const code = await server.stop();
  assert.equal(code, 0);
  assert.match(await upload.closed, /^HTTP\/1\.1 503 [^]*"code":"server_shutting_down"/);
  assert.equal(spooled.length, 1);
});

test('a server killed mid-upload leaves a spool file that the next start removes', { timeout: 120_000 }, async (context) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'linkforge-e2e-spool-'));
  onTeardown(context, () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const first = await startServer(context, { DATA_DIR: dataDir });
  const user = await registered(first);
  const upload = rawUpload(first, user, 10 * 1024 * 1024, `${FILE_HEAD}keyword,url\n${'ab,https://example.com/a\n'.repeat(4000)}`);
  await untilSpoolHolds(dataDir, 1);
  const exited = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL');
  await exited;
  upload.socket.destroy();
  assert.equal(fs.readdirSync(spoolOf(dataDir)).length, 1, 'the killed server left its spool file');
  const second = await startServer(context, { DATA_DIR: dataDir });
  assert.deepEqual(fs.readdirSync(spoolOf(dataDir)), []);
  await second.stop();
});
