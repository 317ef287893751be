import { render, type ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import './styles.css';
import { NotFoundPage } from './components/not-found.js';
import { AuthPage } from './pages/auth.js';
import { HomePage } from './pages/home.js';
import { lazyPage } from './lazy-page.js';
import { navigate, usePath } from './router.js';
import { currentSession } from './session.js';

// The signed-in pages are chunks of their own: the first load of `/` does not carry them.
const DashboardPage = lazyPage(() => import('./pages/dashboard.js').then((m) => m.DashboardPage));
const LinkPage = lazyPage(() => import('./pages/link-page.js').then((m) => m.LinkPage));
const WorkspacesPage = lazyPage(() => import('./pages/workspaces.js').then((m) => m.WorkspacesPage));
const AdminPage = lazyPage(() => import('./pages/admin.js').then((m) => m.AdminPage));

/** Pages that need a session send the visitor to sign in first. */
function SignedIn({ children }: { children: ComponentChildren }) {
  const session = currentSession();
  useEffect(() => { if (!session) navigate('/app/login', { replace: true }); }, [session]);
  return session ? <>{children}</> : null;
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
  const link = /^\/app\/links\/(\d+)$/.exec(path);
  if (link) return <SignedIn><LinkPage key={link[1]} id={link[1]!} /></SignedIn>;
  return <NotFoundPage />;
}

render(<App />, document.getElementById('root')!);
