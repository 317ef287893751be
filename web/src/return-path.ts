/** Where `?next=` may send the visitor after signing in: a page of this UI, never another site. */
export function returnPath(next: string | null): string {
  return next && /^\/(app\/[\w/-]*(\?[^\s#]*)?)?$/.test(next) ? next : '/app/dashboard';
}
