// The create baseline: a minimal Fastify server that inserts each request's row into a
// better-sqlite3 file with the app's durability pragmas (WAL, synchronous=FULL), one plain prepared
// INSERT per request on the event loop, and answers 201 with the code. It serves the same paths as
// the app's create routes and ignores credentials, so the same load drives both.
// Started by bench/redirect.ts as `node bench/support/bare-create-server.mjs <databaseFile>`.
// Sends { type: 'ready', port }, then answers as server-stats.mjs says.
import { randomInt } from 'node:crypto';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { answerParent } from './server-stats.mjs';

const db = new SQLite(process.argv[2]);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS links (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE,
  url TEXT NOT NULL, created_at INTEGER NOT NULL)`);
const insert = db.prepare('INSERT INTO links (code, url, created_at) VALUES (?, ?, ?)');

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const newCode = () => Array.from({ length: 7 }, () => BASE58[randomInt(58)]).join('');

const app = Fastify({ logger: false });
const create = async (request, reply) => {
  const code = newCode();
  insert.run(code, request.body.url, Date.now());
  reply.status(201);
  return { code, url: request.body.url };
};
app.post('/api/urls/public', create);
app.post('/api/urls', create);

await app.listen({ port: 0, host: '127.0.0.1' });
answerParent({
  stop: () => {
    void app.close().finally(() => {
      db.close();
      process.exit(0);
    });
  },
});
process.send?.({ type: 'ready', port: app.server.address().port });
