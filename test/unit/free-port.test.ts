import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ephemeralPortsStartAt, freePort } from '../support/free-port.js';

// A server a test stops must be on a port no outgoing connection can take as its own, or a client
// reconnecting to it can connect to itself (see free-port.ts).
test('a free port for a test server is below the ephemeral range and can be listened on', async () => {
  for (let i = 0; i < 20; i++) {
    const port = await freePort();
    assert.ok(port < ephemeralPortsStartAt(), `port ${port}`);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  }
});
