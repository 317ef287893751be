import { render, type ComponentChildren } from 'preact';
import './styles.css';
import { Layout } from './components/layout.js';
import { AuthPage } from './pages/auth.js';
import { DashboardPage } from './pages/dashboard.js';
import { HomePage } from './pages/home.js';
import { LinkPage } from './pages/link-page.js';
import { WorkspacesPage } from './pages/workspaces.js';
import { Link, usePath } from './router.js';
import { useSession } from './session.js';

/**
 * Pages that need a session show the sign-in form in their own place while signed out, at their own
 * address, so a bookmark, a new tab or a link in an email opens the page itself once signed in.
 */
function SignedIn({ children }: { children: ComponentChildren }) {
  const { status } = useSession();
  if (status === 'loading') {
    return <Layout title="Loading"><p class="muted" aria-busy="true" data-testid="session-loading">Checking whether you are signed in…</p></Layout>;
  }
  return status === 'signed-in' ? <>{children}</> : <AuthPage key="in-place" mode="login" inPlace />;
}

function App() {
  const path = usePath().replace(/\/+$/, '') || '/';
  if (path === '/') return <HomePage />;
  if (path === '/app/login') return <AuthPage key="login" mode="login" />;
  if (path === '/app/register') return <AuthPage key="register" mode="register" />;
  if (path === '/app' || path === '/app/dashboard') return <SignedIn><DashboardPage /></SignedIn>;
  if (path === '/app/workspaces') return <SignedIn><WorkspacesPage /></SignedIn>;
  const link = /^\/app\/links\/(\d+)$/.exec(path);
  if (link) return <SignedIn><LinkPage key={link[1]} id={link[1]!} /></SignedIn>;
  return (
    <Layout title="Page not found">
      <p>There is no page here. <Link href="/">Shorten a link</Link> or go to <Link href="/app/dashboard">your links</Link>.</p>
    </Layout>
  );
}

render(<App />, document.getElementById('root')!);
