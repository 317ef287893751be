import type { components, operations } from './api-types.js';
import { csrfHeader, currentSession, endSession } from './session.js';

/** A problem detail (RFC 9457) as the API answers it, or a network failure in the same shape. */
export interface Problem {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly code: string;
  /** The body field a 400 is about, where the API names it (tags, name, colour). */
  readonly field?: string;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }

  /** The form field an error code is about (`email_taken` → email), or undefined for the form as a whole. */
  field(): string | undefined {
    const { code } = this.problem;
    if (this.problem.field?.startsWith('preview')) return this.problem.field;
    if (this.problem.field === 'fallbackUrl' || code === 'max_clicks_invalid') return this.problem.field ?? 'maxClicks';
    if (code.startsWith('email_') || code === 'user_not_found') return 'email';
    if (code.startsWith('password_')) return 'password';
    if (code.startsWith('custom_code_') || code === 'code_taken') return 'customCode';
    if (code === 'routes_invalid' || code === 'variants_invalid') return this.problem.field;
    if (code.startsWith('url_')) return this.problem.field ?? 'url';
    if (code.startsWith('expir')) return 'expiresAt';
    if (code.startsWith('tag')) return this.problem.field ?? 'tags';
    return undefined;
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Calls the JSON API; the browser sends the session cookie, and every write echoes the session's
 * CSRF token. A 401 ends the session, so a signed-in page shows the sign-in form in its place.
 * An aborted call rejects with the signal's reason, never as a network error.
 */
export async function api<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const session = currentSession();
  const headers: Record<string, string> = { accept: 'application/json', ...(method !== 'GET' && csrfHeader()) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError({ status: 0, title: 'Network error', detail: 'The server cannot be reached; check your connection and try again.', code: 'network_error' });
  }
  if (response.status === 204) return undefined as T;
  const json = await response.json().catch(() => undefined);
  if (!response.ok) {
    const problem = json as Partial<Problem> | undefined;
    if (response.status === 401 && session && !path.startsWith('/api/auth/')) endSession();
    throw new ApiError({
      status: response.status,
      title: problem?.title ?? response.statusText,
      detail: problem?.detail ?? `The server answered ${response.status}.`,
      code: problem?.code ?? 'unknown',
      ...(typeof problem?.field === 'string' && { field: problem.field }),
    });
  }
  return json as T;
}

export const errorText = (error: unknown) => (error instanceof ApiError ? error.problem.detail : 'Something went wrong.');

/** The JSON body of an operation's answer, as the API's OpenAPI document declares it (web/src/api-types.ts). */
export type ResponseOf<Operation extends keyof operations, Status extends number = 200> =
  operations[Operation]['responses'] extends Record<Status, { content: { 'application/json': infer Body } }> ? Body : never;

export type LinkJson = components['schemas']['Link'];
export type LinkPage = ResponseOf<'listLinks'>;
export type CreatedPublicLink = ResponseOf<'createPublicLink', 201>;
export type SignedIn = ResponseOf<'login'>;
export type SyncOutcome = ResponseOf<'syncLinks'>['results'][number];
export type LinkStats = ResponseOf<'getLinkStats'>;
export type TopValue = LinkStats['breakdowns']['referrers'][number];
export type SharedStats = ResponseOf<'getSharedStats'>;
export type ShareStatus = ResponseOf<'getLinkShare'>;
export type CreatedShare = ResponseOf<'shareLinkStats', 201>;
export type Workspace = ResponseOf<'listWorkspaces'>['workspaces'][number];
export type Member = ResponseOf<'listMembers'>['members'][number];
export type ApiKey = ResponseOf<'listApiKeys'>['api_keys'][number];
export type CreatedApiKey = ResponseOf<'createApiKey', 201>;
export type WorkspaceTag = ResponseOf<'listTags'>['items'][number];
export type Webhook = ResponseOf<'listWebhooks'>['webhooks'][number];
export type CreatedWebhook = ResponseOf<'createWebhook', 201>;
export type WebhookDelivery = ResponseOf<'listWebhookDeliveries'>['deliveries'][number];
export type WorkspaceDomain = ResponseOf<'listDomains'>['items'][number];
