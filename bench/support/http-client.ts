/** A plain node:http client for the bench's setup and checks (the measured load comes from wrk or autocannon). */
import http from 'node:http';

export interface Answer {
  readonly status: number;
  readonly location?: string;
  readonly cacheControl?: string;
  readonly body: string;
}

export function request(port: number, method: string, urlPath: string, options: { body?: unknown; token?: string; agent?: http.Agent } = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: http.OutgoingHttpHeaders = {};
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, agent: options.agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.on('end', () => resolve({
        status: response.statusCode ?? 0,
        location: response.headers.location,
        cacheControl: response.headers['cache-control'],
        body,
      }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export const get = (port: number, urlPath: string, agent?: http.Agent) => request(port, 'GET', urlPath, { agent });

/** POSTs JSON and answers the parsed body; any status but `expect` is an error. */
export async function postJson<T>(port: number, urlPath: string, body: unknown, expect: number, token?: string): Promise<T> {
  const answer = await request(port, 'POST', urlPath, { body, token });
  if (answer.status !== expect) throw new Error(`POST ${urlPath} answered ${answer.status}, expected ${expect}: ${answer.body}`);
  return JSON.parse(answer.body) as T;
}

/** Registers an account and answers its bearer token. */
export async function registerUser(port: number, email: string): Promise<string> {
  const { token } = await postJson<{ token: string }>(port, '/api/auth/register', { email, password: 'bench-password-1' }, 201);
  return token;
}

/** GETs each code once (a few at a time) and counts the statuses: warms the app's LRU. */
export async function prime(port: number, codes: readonly string[], concurrency = 32): Promise<Map<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < codes.length) {
      const { status } = await get(port, `/${codes[next++]}`, agent);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return statuses;
}
