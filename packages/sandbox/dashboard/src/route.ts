// The page's address: which view, in the fragment (`#/payments?status=failed`, `#/payments/pay_…`), so that a view can
// be linked and reloaded. Credentials never go here.
import { useEffect, useState } from 'preact/hooks';

/** A parsed fragment: its path's parts and its query. */
export interface Route {
  parts: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** The fragment of a view: `href('payments', { status: 'failed' })`. */
export function href(path: string, query: Record<string, string | number | undefined> = {}): string {
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([name, value]) =>
      value === undefined || value === '' ? [] : [[name, String(value)]],
    ),
  ).toString();
  return `#/${path}${search ? `?${search}` : ''}`;
}

/** The current route, following the fragment. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}
