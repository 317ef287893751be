import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';

/** A local server the health check is pointed at, recording what reached it. */
export interface TargetServer {
  readonly host: string;
  readonly port: number;
  /** `http://host:port/path`, IPv6 hosts bracketed. */
  url(path?: string): string;
  /** Every request that reached it (for raw servers: every connection, as method `RAW`). */
  readonly requests: Array<{ readonly method: string; readonly path: string }>;
  /** Connections that have closed, whoever closed them. */
  readonly closedSockets: () => number;
  /** The most requests in progress at once. */
  readonly maxInFlight: () => number;
  close(): Promise<void>;
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

async function track(server: net.Server, host: string, requests: TargetServer['requests'], inFlight: { now: number; max: number }): Promise<TargetServer> {
  const sockets = new Set<net.Socket>();
  let closed = 0;
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed += 1;
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    url: (path = '/') => `http://${shown}:${port}${path}`,
    requests,
    closedSockets: () => closed,
    maxInFlight: () => inFlight.max,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An HTTP server on `host` (127.0.0.1 unless said otherwise) answering with `handler`. */
export function startTarget(handler: Handler, host = '127.0.0.1'): Promise<TargetServer> {
  const requests: Array<{ method: string; path: string }> = [];
  const inFlight = { now: 0, max: 0 };
  const server = http.createServer((request, response) => {
    requests.push({ method: request.method ?? '', path: request.url ?? '' });
    inFlight.now += 1;
    inFlight.max = Math.max(inFlight.max, inFlight.now);
    response.once('close', () => { inFlight.now -= 1; });
    handler(request, response);
  });
  return track(server, host, requests, inFlight);
}

/** A TCP server that hands each connection to `onSocket`, for answers no HTTP server would give. */
export function startRawTarget(onSocket: (socket: net.Socket) => void, host = '127.0.0.1'): Promise<TargetServer> {
  const requests: Array<{ method: string; path: string }> = [];
  const server = net.createServer((socket) => {
    requests.push({ method: 'RAW', path: '' });
    socket.on('error', () => {});
    onSocket(socket);
  });
  return track(server, host, requests, { now: 0, max: 0 });
}

/** Runs `body` with the server once it listens, and closes the server after it, whatever happens. */
export async function withServer(starting: Promise<TargetServer>, body: (server: TargetServer) => Promise<void>): Promise<void> {
  const server = await starting;
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
export function drip(socket: Writable, text: string, everyMs: number): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || socket.writableEnded) return clearInterval(timer);
    socket.write(text[index % text.length]!);
    index += 1;
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

/** A port on 127.0.0.1 where nothing listens (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
