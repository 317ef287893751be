import type { McpConfig } from '../config.js';
import { ApiProblem, problemOf } from './api-problem.js';

/** A bound on one call, so a model is told of an instance that stopped answering instead of waiting forever. */
const ANSWER_WITHIN_MS = 30_000;

export type Query = Readonly<Record<string, string | number | undefined>>;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface CallOptions { readonly query?: Query; readonly body?: unknown }

export interface LinkforgeApi {
  /** The answer's status and JSON (undefined for 204); throws ApiProblem for any refusal or failure to reach the instance. */
  answer<T>(method: Method, path: string, options?: CallOptions): Promise<{ status: number; body: T }>;
  /** The answer's JSON alone. */
  call<T>(method: Method, path: string, options?: CallOptions): Promise<T>;
}

/** The HTTP API of the Linkforge at `config.url`, called with `config.apiKey` as the bearer (ADR 0033). */
export function linkforgeApi(config: McpConfig): LinkforgeApi {
  const api: LinkforgeApi = {
    async answer<T>(method: Method, path: string, options: CallOptions = {}) {
      const url = new URL(`${config.url}${path}`);
      for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
      const headers: Record<string, string> = { authorization: `Bearer ${config.apiKey}`, accept: 'application/json' };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      let response: Response;
      try {
        response = await fetch(url, {
          method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
        });
      } catch (error) {
        throw unreachable(config.url, error);
      }
      if (!response.ok) throw await problemOf(response);
      return { status: response.status, body: (response.status === 204 ? undefined : await response.json()) as T };
    },
    call: async <T>(method: Method, path: string, options?: CallOptions) => (await api.answer<T>(method, path, options)).body,
  };
  return api;
}

function unreachable(url: string, error: unknown): ApiProblem {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return new ApiProblem(`Linkforge at ${url} did not answer`, `no answer within ${ANSWER_WITHIN_MS / 1000} s`, undefined, undefined);
  const reason = err.cause?.code ?? err.cause?.message ?? err.message;
  return new ApiProblem(`Cannot reach Linkforge at ${url}`, `${reason}; is it running, and is LINKFORGE_URL right?`, undefined, undefined);
}
