// The default wait between retry attempts.

/** Waits `ms` milliseconds; rejects with the signal's reason if it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Waits on a timer; an abort of `signal` ends the wait early with the signal's reason. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
