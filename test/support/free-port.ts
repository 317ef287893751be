import fs from 'node:fs';
import net from 'node:net';

/** Linux's default when /proc cannot be read. */
const DEFAULT_EPHEMERAL_LOW = 32768;
const LOWEST = 10_000;

/** The first port the kernel gives to outgoing connections (`net.ipv4.ip_local_port_range`). */
export function ephemeralPortsStartAt(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + 1_000 ? low : DEFAULT_EPHEMERAL_LOW;
  } catch {
    return DEFAULT_EPHEMERAL_LOW;
  }
}

/**
 * A loopback port nobody listens on, below the ephemeral range. Tests stop the servers they start
 * on these ports (a private Redis or PostgreSQL, the app) and expect reconnects to be refused; on a
 * port inside the ephemeral range, a reconnect can, rarely, get that very port as its own source
 * port and connect to itself (TCP simultaneous open), so the client sees its own bytes echoed as a
 * server's answer.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralPortsStartAt() - 1;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${high}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
