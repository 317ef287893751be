import { useEffect, useState } from 'preact/hooks';
import { api, type ResponseOf } from './api.js';
import { currentSession } from './session.js';

/** The role answered for a session's token, asked once per token (the session keeps no role of its own). */
const roles = new Map<string, Promise<string | undefined>>();

function roleOf(token: string): Promise<string | undefined> {
  let role = roles.get(token);
  if (!role) {
    role = api<ResponseOf<'getProfile'>>('GET', '/api/auth/me').then((me) => me.user.role, () => undefined);
    roles.set(token, role);
  }
  return role;
}

/** Whether the signed-in user is a site admin: the navigation offers the operator's page to them only. */
export function useIsAdmin(): boolean {
  const token = currentSession()?.token;
  const [admin, setAdmin] = useState(false);
  useEffect(() => {
    let current = true;
    if (token) void roleOf(token).then((role) => { if (current) setAdmin(role === 'admin'); });
    else setAdmin(false);
    return () => { current = false; };
  }, [token]);
  return admin;
}
