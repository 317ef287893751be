import http from 'node:http';
import https from 'node:https';
import { DestinationRefusedError, pinnedLookup, vetHost, type AddressPolicy } from './destination-address.js';

/** A delivery's bounds: the health check's (ADR 0015), with no redirect followed (ADR 0035). */
export const DELIVERY_TIMEOUT_MS = 5_000;
const MAX_RESPONSE_BYTES = 32 * 1024;
const USER_AGENT = 'Linkforge-Webhooks/0.1';

export type SendResult = { readonly status: number } | { readonly error: string };

/**
 * POSTs one webhook. The host is vetted at every attempt and connected to by the vetted address
 * (a name may have changed what it resolves to since it was saved); a redirect is an answer like
 * any other non-2xx, never followed; at most 32 KiB of the answer are read. Never throws.
 */
export async function sendWebhook(rawUrl: string, headers: Record<string, string>, body: string, policy: AddressPolicy, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<SendResult> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const url = new URL(rawUrl);
    const target = await Promise.race([vetHost(url.hostname, policy), aborted(signal)]);
    return await new Promise<SendResult>((resolve) => {
      const request = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'user-agent': USER_AGENT, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
        lookup: pinnedLookup(target),
        signal,
      });
      let settled = false;
      const settle = (result: SendResult) => {
        if (settled) return;
        settled = true;
        request.destroy();
        resolve(result);
      };
      request.on('error', (error) => settle({ error: signal.aborted ? `no answer within ${timeoutMs} ms` : error.message }));
      request.once('response', (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_RESPONSE_BYTES) settle({ status });
        });
        response.once('end', () => settle({ status }));
        response.on('error', () => settle({ status }));
      });
      request.end(body);
    });
  } catch (error) {
    if (error instanceof DestinationRefusedError) return { error: error.message };
    return { error: signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message };
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}
