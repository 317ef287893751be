import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorText } from './api.js';

export interface ApiResult<T> {
  /** The latest answer for this path; while another path loads, the answer it replaces. */
  readonly data: T | undefined;
  /** Why the latest call failed, as the page shows it; cleared by the next answer. */
  readonly error: string | undefined;
  /**
   * True from a change of path (or a reload) until its answer is shown: pages mark the region
   * `aria-busy` and must not present `data` as the new path's (no old rows under a new page number).
   */
  readonly loading: boolean;
  /** Asks again for the same path (after a change this page made); settles once that answer is shown. */
  reload(): Promise<void>;
}

interface Answer<T> { data?: T; error?: string; for?: string }

/**
 * The pages' one way to read the API: GET `path` whenever it changes, or when reload() asks. A call
 * that a newer one supersedes is aborted, so a slow answer to an old filter can never replace the
 * answer to the current one.
 */
export function useApi<T>(path: string): ApiResult<T> {
  const [answer, setAnswer] = useState<Answer<T>>({});
  const [version, setVersion] = useState(0);
  const reloads = useRef<(() => void)[]>([]);
  const key = `${version} ${path}`;
  useEffect(() => {
    const call = new AbortController();
    const settle = (next: (previous: Answer<T>) => Answer<T>) => {
      if (call.signal.aborted) return;
      setAnswer(next);
      reloads.current.splice(0).forEach((done) => done());
    };
    api<T>('GET', path, undefined, call.signal).then(
      (data) => settle(() => ({ data, for: key })),
      (error: unknown) => settle((previous) => ({ data: previous.data, error: errorText(error), for: key })),
    );
    return () => call.abort();
  }, [path, version]);
  const reload = () => new Promise<void>((done) => {
    reloads.current.push(done);
    setVersion((v) => v + 1);
  });
  return { data: answer.data, error: answer.error, loading: answer.for !== key, reload };
}
