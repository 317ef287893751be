// The naive create baseline: plain node:http and better-sqlite3, no framework, no batching. Each
// request's JSON body is parsed and checked minimally (an object with a string `url`), inserted by
// one prepared INSERT in its own autocommit transaction (WAL, synchronous=FULL: one fsync per
// request, as the app's durability promises), and answered 201 with the row as JSON. It serves the
// app's create paths and ignores credentials, so the same load drives both.
// Started by bench/redirect.ts as `node bench/support/naive-create-server.mjs <databaseFile>`.
// Sends { type: 'ready', port }, then answers as server-stats.mjs says.
import { randomInt } from 'node:crypto';
import http from 'node:http';
import SQLite from 'better-sqlite3';
import { answerParent } from './server-stats.mjs';

const db = new SQLite(process.argv[2]);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`CREATE TABLE IF NOT EXISTS links (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE,
  url TEXT NOT NULL, created_at INTEGER NOT NULL)`);
const insert = db.prepare('INSERT INTO links (code, url, created_at) VALUES (?, ?, ?) RETURNING id, code, url, created_at');

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const newCode = () => Array.from({ length: 7 }, () => BASE58[randomInt(58)]).join('');
const PATHS = new Set(['/api/urls/public', '/api/urls']);

function answer(response, status, body) {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

const server = http.createServer((request, response) => {
  if (request.method !== 'POST' || !PATHS.has(request.url)) return answer(response, 404, '{"error":"not found"}');
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(response, 400, '{"error":"invalid JSON"}');
    }
    if (body === null || typeof body !== 'object' || typeof body.url !== 'string') return answer(response, 400, '{"error":"url must be a string"}');
    const row = insert.get(newCode(), body.url, Date.now());
    answer(response, 201, JSON.stringify(row));
  });
});

server.listen(0, '127.0.0.1', () => {
  answerParent({
    stop: () => {
      server.close();
      db.close();
      process.exit(0);
    },
  });
  process.send?.({ type: 'ready', port: server.address().port });
});
