import { useEffect, useState } from 'preact/hooks';

/**
 * The signed-in session as this page knows it. The token itself lives in an HttpOnly cookie the
 * server set at sign-in (ADR 0024): no script here can read it, every tab
 * and reload shares it, and the page only keeps who is signed in and the CSRF token that its
 * writes echo. GET /api/auth/me answers both when the page loads.
 */
export interface Session {
  readonly userId: number;
  readonly email: string;
  /** `admin` for a site admin: the navigation offers the operator's page to them only. */
  readonly role: string;
  readonly csrfToken: string;
}

export type SessionState =
  | { readonly status: 'loading' }
  | { readonly status: 'signed-out' }
  | { readonly status: 'signed-in'; readonly session: Session };

interface Profile { user: { id: number; email: string; role: string }; csrfToken?: string }

let state: SessionState = { status: 'loading' };
const listeners = new Set<() => void>();
// Other tabs of this site hear about a sign-in or sign-out at once instead of at their next request.
const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('linkforge.session') : undefined;

function publish(next: SessionState, { tell = true } = {}): void {
  state = next;
  listeners.forEach((listener) => listener());
  if (tell) tabs?.postMessage(next.status);
}

export const currentSession = (): Session | undefined => (state.status === 'signed-in' ? state.session : undefined);

/** The header every write made with the session cookie carries (a JSON call, an upload); empty when signed out. */
export function csrfHeader(): Record<string, string> {
  const session = currentSession();
  return session ? { 'x-csrf-token': session.csrfToken } : {};
}

/** Asks the server who the session cookie belongs to; a 401 (or no cookie) is signed out. */
export async function loadSession({ tell = true } = {}): Promise<SessionState> {
  try {
    const response = await fetch('/api/auth/me', { headers: { accept: 'application/json' } });
    const profile = response.ok ? await response.json() as Profile : undefined;
    const csrfToken = profile?.csrfToken;
    publish(profile && csrfToken ? { status: 'signed-in', session: { userId: profile.user.id, email: profile.user.email, role: profile.user.role, csrfToken } } : { status: 'signed-out' }, { tell });
  } catch {
    publish({ status: 'signed-out' }, { tell });
  }
  return state;
}

/**
 * The session sign-in answered. Pages hear of it only from announceSession(), so the links moved
 * into the account at sign-in are there before any signed-in page first asks for them.
 */
export function startSession(session: Session): void {
  state = { status: 'signed-in', session };
}

export function announceSession(): void {
  publish(state);
}

/** Forgets the session here (after the server refused it, or signed it out); other tabs follow. */
export function endSession(): void {
  if (state.status !== 'signed-out') publish({ status: 'signed-out' });
}

/**
 * Signs out on the server (every session of this user, everywhere), then here; false when the
 * server could not be told, and the session is kept so the user can try again.
 */
export async function signOut(): Promise<boolean> {
  const session = currentSession();
  if (session) {
    const response = await fetch('/api/auth/logout', { method: 'POST', headers: { 'x-csrf-token': session.csrfToken } }).catch(() => undefined);
    // 401: the session had already ended elsewhere.
    if (!response || (!response.ok && response.status !== 401)) return false;
  }
  endSession();
  return true;
}

/** The session state, re-rendering the component whenever it changes. */
export function useSession(): SessionState {
  const [, setSeen] = useState(state);
  useEffect(() => {
    const update = () => setSeen(state);
    listeners.add(update);
    update(); // a change between this component's render and now would otherwise be missed
    return () => { listeners.delete(update); };
  }, []);
  return state;
}

tabs?.addEventListener('message', (event: MessageEvent<SessionState['status']>) => {
  if (event.data === 'signed-out') publish({ status: 'signed-out' }, { tell: false });
  else if (event.data === 'signed-in' && state.status !== 'signed-in') void loadSession({ tell: false });
});
void loadSession({ tell: false });
