import { useEffect, useState } from 'preact/hooks';
import type { ComponentChildren, JSX } from 'preact';

/** History-API routing, enough for a handful of pages: the path is the state, nothing else is. */
const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((listener) => listener());
  window.scrollTo(0, 0);
  // As a page load would: the next Tab starts from the new page, and screen readers hear its heading.
  requestAnimationFrame(() => document.getElementById('main')?.focus({ preventScroll: true }));
}

export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => { listeners.delete(update); window.removeEventListener('popstate', update); };
  }, []);
  return path;
}

export function useSearchParams(): URLSearchParams {
  usePath();
  return new URLSearchParams(location.search);
}

type LinkProps = JSX.HTMLAttributes<HTMLAnchorElement> & { href: string; children: ComponentChildren };

/** An ordinary link (open in a new tab works) that navigates in place on a plain click. */
export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={onClick} {...rest}>{children}</a>;
}
