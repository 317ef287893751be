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
  /** The status the next requests are answered with (200 unless changed). */
  answer: number;
}

/** A real `node:http` server on loopback that records every POST and answers `answer`; closed with the scope. */
export async function startWebhookReceiver(scope: TeardownScope, path = '/hooks'): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = { url: '', received: [], answer: 200 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      receiver.received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(receiver.answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTeardown(scope, () => new Promise((resolve) => server.close(resolve)));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
