import { useSession } from './session.js';

/** Whether the signed-in user is a site admin: the navigation offers the operator's page to them only. */
export function useIsAdmin(): boolean {
  const state = useSession();
  return state.status === 'signed-in' && state.session.role === 'admin';
}
