/**
 * The signed-in session: the JWT lives in sessionStorage (gone with the tab) and travels only in
 * the Authorization header, never in a URL.
 */
const KEY = 'linkforge.session';

export interface Session {
  readonly token: string;
  readonly email: string;
}

export function currentSession(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<Session>) : undefined;
    return parsed && typeof parsed.token === 'string' && typeof parsed.email === 'string' ? { token: parsed.token, email: parsed.email } : undefined;
  } catch {
    return undefined;
  }
}

export function startSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function endSession(): void {
  sessionStorage.removeItem(KEY);
}
