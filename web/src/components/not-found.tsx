import { Link } from '../router.js';
import { Layout } from './layout.js';

/** What a path that names no page shows (and the operator's page, to anyone but a site admin). */
export function NotFoundPage() {
  return (
    <Layout title="Page not found">
      <p>There is no page here. <Link href="/">Shorten a link</Link> or go to <Link href="/app/dashboard">your links</Link>.</p>
    </Layout>
  );
}
