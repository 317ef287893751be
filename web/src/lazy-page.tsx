import type { ComponentType, FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Layout } from './components/layout.js';

/**
 * A page whose code is a chunk of its own, fetched the first time the page is shown (Vite splits
 * at each `import()`): the first load of `/` carries only what the home page runs. Until the chunk
 * is in, the frame shows with a loading note; a chunk that fails to load says so.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): FunctionComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  return function LazyPage(props: P) {
    const [, setReady] = useState(0);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded) return;
      let current = true;
      loading ??= load();
      loading.then((page) => { loaded = page; if (current) setReady(1); }, () => {
        loading = undefined;
        if (current) setFailed(true);
      });
      return () => { current = false; };
    }, []);
    if (loaded) { const Page = loaded; return <Page {...props} />; }
    return (
      <Layout title={failed ? 'This page could not be loaded' : 'Loading…'}>
        <p class="loading-note" aria-busy={!failed}>{failed ? 'Check your connection and reload the page.' : 'Loading the page…'}</p>
      </Layout>
    );
  };
}
