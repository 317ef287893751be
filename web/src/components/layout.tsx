import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Link, navigate, usePath } from '../router.js';
import { signOut, useSession } from '../session.js';
import { useInstance } from '../instance.js';
import { useIsAdmin } from '../admin-role.js';

/** Page frame: skip link, site navigation, one main landmark with the page's heading; the title follows the page. */
export function Layout({ title, children }: { title: string; children: ComponentChildren }) {
  const path = usePath();
  const session = useSession().status === 'signed-in';
  const instance = useInstance();
  const admin = useIsAdmin();
  const [signOutFailed, setSignOutFailed] = useState(false);
  useEffect(() => { document.title = `${title} · Linkforge`; }, [title]);
  const current = (href: string) => (path === href ? 'page' : undefined);
  const leave = async () => {
    const done = await signOut();
    setSignOutFailed(!done);
    if (done) navigate('/');
  };
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="site">
        <Link href="/" class="brand">Linkforge</Link>
        <nav aria-label="Main">
          <ul>
            <li><Link href="/" aria-current={current('/')}>Shorten</Link></li>
            {session ? (
              <>
                <li><Link href="/app/dashboard" aria-current={current('/app/dashboard')}>Dashboard</Link></li>
                <li><Link href="/app/workspaces" aria-current={current('/app/workspaces')}>Workspaces</Link></li>
                {admin && <li><Link href="/app/admin" aria-current={current('/app/admin')}>Admin</Link></li>}
                <li><button type="button" class="link" onClick={leave}>Sign out</button></li>
              </>
            ) : (
              <>
                <li><Link href="/app/login" aria-current={current('/app/login')}>Sign in</Link></li>
                {instance?.registrationAllowed && <li><Link href="/app/register" aria-current={current('/app/register')}>Register</Link></li>}
              </>
            )}
            <li><a href="/docs">API</a></li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{title}</h1>
        {signOutFailed && <p class="form-error" role="alert">Signing out failed: the server could not be reached. Try again.</p>}
        {children}
      </main>
    </>
  );
}
