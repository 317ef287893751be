import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTeardown, type TeardownScope } from './teardown.js';

export interface ReceivedWebhook {
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface WebhookReceiver {
  url: string;
  readonly received: ReceivedWebhook[];
  /** The status the next requests are answered with (200 unless changed); `hang` never answers. */
  answer: number | 'hang';
  /** Resolves once `check` holds for what was received (at once if it already does). */
  until(check: (received: readonly ReceivedWebhook[]) => boolean): Promise<void>;
}

/** A real `node:http` server on loopback that records every POST and answers `answer`; closed with the scope. */
export async function startWebhookReceiver(scope: TeardownScope, path = '/hooks'): Promise<WebhookReceiver> {
  const waiting = new Set<() => void>();
  const receiver: WebhookReceiver = {
    url: '', received: [], answer: 200,
    until: (check) => new Promise((resolve) => {
      const wake = () => {
        if (!check(receiver.received)) return;
        waiting.delete(wake);
        resolve();
      };
      waiting.add(wake);
      wake();
    }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      receiver.received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = receiver.answer;
      if (answer !== 'hang') response.writeHead(answer).end();
      for (const wake of [...waiting]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTeardown(scope, () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
