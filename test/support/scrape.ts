import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
export function parseExposition(text: string): Sample[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not an exposition line: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    return { name: match[1]!, labels, value: Number(match[3]) };
  });
}

/** GET /metrics (through Fastify) with an optional bearer token; fails the test unless it answers 200. */
export async function scrape(app: FastifyInstance, token?: string): Promise<Sample[]> {
  const response = await app.inject({ url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });
  assert.equal(response.statusCode, 200, response.body);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parseExposition(response.body);
}

/** The value of the one sample of `name` whose labels include `labels`; 0 when there is none. */
export function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const matching = samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  assert.ok(matching.length <= 1, `${matching.length} samples of ${name} ${JSON.stringify(labels)}`);
  return matching[0]?.value ?? 0;
}

/** Listens on a free port of 127.0.0.1: requests then take the real server's path (the redirect fast path). */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
