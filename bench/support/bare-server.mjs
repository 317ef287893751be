// The redirect baseline: a bare node:http server answering the same redirects from a Map, with the
// same headers the app sends (Location, Cache-Control, Content-Length: 0) and the same 404 body.
// Started by bench/redirect.ts with the path of a JSON file: { linksFile, permanentCacheControl,
// notFoundBody }, where linksFile holds one `code<TAB>url<TAB>expiresAt|-` line per link.
// Sends { type: 'ready', port }, then answers as server-stats.mjs says.
import fs from 'node:fs';
import http from 'node:http';
import { answerParent } from './server-stats.mjs';

const setup = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const links = new Map();
for (const line of fs.readFileSync(setup.linksFile, 'utf8').split('\n')) {
  if (!line) continue;
  const [code, url, expires] = line.split('\t');
  const permanent = expires === '-';
  links.set(code, {
    status: permanent ? 301 : 302,
    headers: {
      location: url,
      'cache-control': permanent ? setup.permanentCacheControl : 'private, no-cache',
      'content-length': '0',
    },
  });
}
const notFound = Buffer.from(setup.notFoundBody);
const notFoundHeaders = {
  'content-type': 'application/problem+json',
  'content-length': String(notFound.length),
  'cache-control': 'no-store',
};

const server = http.createServer((req, res) => {
  const link = links.get(req.url.slice(1));
  if (link) {
    res.writeHead(link.status, link.headers);
    res.end();
  } else {
    res.writeHead(404, notFoundHeaders);
    res.end(notFound);
  }
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'ready', port: server.address().port });
});

answerParent({
  extra: () => ({ cacheSize: links.size }),
  stop: () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  },
});
