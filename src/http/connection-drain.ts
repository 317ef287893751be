import http, { type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import net from 'node:net';

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * Shutdown without resets. HTTP/1.1 gives a server one race-free way to end a kept-alive
 * connection: answer a request with `Connection: close`. Closing an idle socket races with a
 * client that is sending on it right now (Node's `server.close()` does that at once), except at
 * the keep-alive timeout the server announces (`Keep-Alive: timeout=5`), which clients stay under.
 *
 * So `drain` stops accepting connections, writes every response from then on (requests already
 * running included) with `Connection: close`, and leaves idle sockets to the keep-alive timeout,
 * waiting until every connection has ended or `maxWaitMs` has passed. Whatever is still open
 * after that is left to `app.close()`.
 */
export class ConnectionDrain {
  /** While true, every response closes its connection. */
  closing = false;
  private readonly drainListeners: Array<() => void> = [];

  /**
   * Called once when draining starts: work that waits on its client (an upload) and would hold
   * the drain until its deadline ends itself instead, with an answer.
   */
  onDrain(listener: () => void): void {
    this.drainListeners.push(listener);
  }

  /**
   * The server's response class. It checks the flag when the head is written, not when the
   * request arrives, so that requests already running at the signal also close their connection.
   */
  responseClass(): typeof http.ServerResponse<http.IncomingMessage> {
    const drain = this;
    return class DrainingResponse extends http.ServerResponse {
      override writeHead(statusCode: number, reasonOrHeaders?: string | Headers, headers?: Headers): this {
        if (drain.closing) this.setHeader('connection', 'close');
        return super.writeHead(statusCode, reasonOrHeaders as string, headers);
      }
    };
  }

  drain(server: http.Server, maxWaitMs: number): Promise<void> {
    this.closing = true;
    for (const listener of this.drainListeners.splice(0)) listener();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      // The plain net close stops the listener and calls back once the last connection has ended;
      // http.Server#close would also destroy the idle keep-alive sockets at once.
      net.Server.prototype.close.call(server, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
