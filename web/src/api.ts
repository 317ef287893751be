import { currentSession, endSession } from './session.js';
import { navigate } from './router.js';

/** A problem detail (RFC 9457) as the API answers it, or a network failure in the same shape. */
export interface Problem {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly code: string;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }

  /** The form field an error code is about (`email_taken` → email), or undefined for the form as a whole. */
  field(): string | undefined {
    const { code } = this.problem;
    if (code.startsWith('email_') || code === 'user_not_found') return 'email';
    if (code.startsWith('password_')) return 'password';
    if (code.startsWith('custom_code_') || code === 'code_taken') return 'customCode';
    if (code.startsWith('url_')) return 'url';
    if (code.startsWith('expir')) return 'expiresAt';
    return undefined;
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Calls the JSON API; the session token goes in the Authorization header. A 401 ends the session. */
export async function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const session = currentSession();
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError({ status: 0, title: 'Network error', detail: 'The server cannot be reached; check your connection and try again.', code: 'network_error' });
  }
  if (response.status === 204) return undefined as T;
  const json = await response.json().catch(() => undefined);
  if (!response.ok) {
    const problem = json as Partial<Problem> | undefined;
    if (response.status === 401 && session && !path.startsWith('/api/auth/')) {
      endSession();
      navigate('/app/login', { replace: true });
    }
    throw new ApiError({
      status: response.status,
      title: problem?.title ?? response.statusText,
      detail: problem?.detail ?? `The server answered ${response.status}.`,
      code: problem?.code ?? 'unknown',
    });
  }
  return json as T;
}

export const errorText = (error: unknown) => (error instanceof ApiError ? error.problem.detail : 'Something went wrong.');

export interface LinkJson {
  id: number;
  shortCode: string;
  shortUrl: string;
  originalUrl: string;
  linkType: 'TEMPORARY' | 'PERMANENT';
  status: 'ACTIVE' | 'EXPIRED' | 'DELETED';
  workspaceId: number | null;
  createdAt: string;
  expiresAt: string | null;
  deletedAt: string | null;
  redirectCount: number;
  avgRedirectMs: number;
  humanCount: number;
  destinationStatus: number | null;
  lastCheckedAt: string | null;
}

export interface ClassCounts { total: number; human: number; bot: number; preview: number }
export interface TopValue { value: string | null; clicks: ClassCounts }
export interface LinkStats {
  interval: 'hour' | 'day';
  totals: ClassCounts;
  series: { start: string; clicks: ClassCounts }[];
  breakdowns: { referrers: TopValue[]; browsers: TopValue[]; oses: TopValue[]; devices: TopValue[] };
}

export interface Workspace { id: number; name: string; is_personal: boolean; role: 'owner' | 'admin' | 'member'; created_at: string }
export interface Member { workspace_id: number; user_id: number; email: string; role: 'owner' | 'admin' | 'member'; created_at: string }
export interface ApiKey { id: number; name: string; prefix: string; created_at: string; last_used_at: string | null }

export type SyncOutcome = { shortCode: string; outcome: 'claimed' | 'created' | 'existing' | 'rejected'; reason?: string; link?: LinkJson };
