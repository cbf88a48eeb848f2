// Reading what a page shows: one call per render of its inputs, again after each action (`version`).
import { useEffect, useState } from 'preact/hooks';
import type { Answer } from './objects.js';

/** What a load gave so far. */
export type Loaded<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; error: unknown };

/** Runs `load` whenever `inputs` change; an answer that arrives after newer inputs is dropped. */
export function useLoad<T>(load: () => Promise<Answer<T>>, inputs: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    setLoaded({ state: 'loading' });
    load().then(
      (answer) => {
        if (!current) return;
        setLoaded(answer.ok ? { state: 'done', data: answer.data } : { state: 'failed', error: answer.error });
      },
      (error: unknown) => current && setLoaded({ state: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, inputs);
  return loaded;
}

/** Turns a client's `{ data, error }` into an Answer of `pick(data)`. */
export async function answerOf<D, T>(
  call: Promise<{ data?: D; error?: unknown }>,
  pick: (data: D) => T,
): Promise<Answer<T>> {
  const { data, error } = await call;
  return error === undefined && data !== undefined ? { ok: true, data: pick(data) } : { ok: false, error };
}
