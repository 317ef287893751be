import net from 'node:net';

/** The port cannot be listened on; the message is one line an operator can act on. */
export class PortUnavailableError extends Error {
  constructor(host: string, port: number, cause: NodeJS.ErrnoException) {
    super(`Cannot listen on ${host}:${port}: ${reasonOf(cause)}`, { cause });
    this.name = 'PortUnavailableError';
  }
}

function reasonOf(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'EADDRINUSE': return 'the port is already in use (stop the other process or set PORT to a free port)';
    case 'EACCES': return 'permission denied (ports below 1024 need privileges; set PORT to 1024 or higher)';
    case 'EADDRNOTAVAIL': return 'HOST is not an address of this machine';
    case 'ENOTFOUND': case 'EAI_AGAIN': return 'HOST does not resolve to an address';
    default: return error.message;
  }
}

export function isListenError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && ['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN'].includes((error as NodeJS.ErrnoException).code ?? '');
}

/**
 * Holds the port while the database and secrets are prepared, so that a port already in use is
 * reported before anything is created in the data directory. `release` frees it just before the
 * real server listens.
 */
export async function reservePort(port: number, host: string): Promise<{ release(): Promise<void> }> {
  // A client that connects while the port is held (a health probe) is dropped at once: the
  // release below waits for every connection of the probe to end.
  const probe = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(isListenError(error) ? new PortUnavailableError(host, port, error) : error));
    probe.listen({ port, host, exclusive: true }, resolve);
  });
  return {
    release: () => new Promise<void>((resolve) => probe.close(() => resolve())),
  };
}
