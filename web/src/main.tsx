import { render, type ComponentChildren } from 'preact';
import './styles.css';
import { Layout } from './components/layout.js';
import { NotFoundPage } from './components/not-found.js';
import { AuthPage } from './pages/auth.js';
import { HomePage } from './pages/home.js';
import { lazyPage } from './lazy-page.js';
import { usePath } from './router.js';
import { useSession } from './session.js';

// The signed-in pages are chunks of their own: the first load of `/` does not carry them.
const DashboardPage = lazyPage(() => import('./pages/dashboard.js').then((m) => m.DashboardPage));
const LinkPage = lazyPage(() => import('./pages/link-page.js').then((m) => m.LinkPage));
const WorkspacesPage = lazyPage(() => import('./pages/workspaces.js').then((m) => m.WorkspacesPage));
const SharedStatsPage = lazyPage(() => import('./pages/shared-stats.js').then((m) => m.SharedStatsPage));
const AdminPage = lazyPage(() => import('./pages/admin.js').then((m) => m.AdminPage));

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
  // Not behind SignedIn: to anyone but a site admin, signed in or not, the operator's page does not exist.
  if (path === '/app/admin') return <AdminPage />;
  // Not behind SignedIn: a share address is for people without an account here.
  const shared = /^\/app\/shared\/([A-Za-z0-9_-]{1,100})$/.exec(path);
  if (shared) return <SharedStatsPage key={shared[1]} token={shared[1]!} />;
  const link = /^\/app\/links\/(\d+)$/.exec(path);
  if (link) return <SignedIn><LinkPage key={link[1]} id={link[1]!} /></SignedIn>;
  return <NotFoundPage />;
}

render(<App />, document.getElementById('root')!);
