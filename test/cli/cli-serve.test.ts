import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createCliBackend, type CliBackend } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { onTeardown, suiteScope } from '../support/teardown.js';
import { nodeEntry } from '../support/node-entry.js';

describe('linkforge serve', () => {
  let cli: CliBackend;
  let server: ChildProcess;
  let baseUrl: string;
  let output = '';

  const suite = suiteScope();
  before(async () => {
    cli = await createCliBackend(suite);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [...nodeEntry('src/cli/main.ts'), 'serve'], {
      env: { ...process.env, ...cli.env, PORT: String(port), HOST: '127.0.0.1', BASE_URL: baseUrl, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTeardown(suite, () => { if (server.exitCode === null) server.kill('SIGKILL'); });
    server.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    server.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    // A bound for a start that hangs: tsx on a busy 2-core machine has taken over 30 s.
    for (const deadline = Date.now() + 60_000; !output.includes('Linkforge is ready');) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`serve did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });


  test('serves the web UI, the API and redirects, as npm start does', async () => {
    const home = await fetch(`${baseUrl}/`);
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(home.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const created = await fetch(`${baseUrl}/api/urls/public`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/served' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const { shortCode } = await created.json() as { shortCode: string };
    const redirect = await fetch(`${baseUrl}/${shortCode}`, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.get('location'), 'https://example.com/served');
  });

  test('SIGTERM shuts it down gracefully with exit code 0', async () => {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, output);
  });
});
