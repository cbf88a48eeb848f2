// In-process requests end as fetch ends them: when the request's signal aborts (a client's time-out), the caller's
// promise rejects with the signal's reason at once, whatever the handler is still doing.

/** `answer`, or a rejection with `signal.reason` as soon as the signal aborts. */
export function abortable(answer: Promise<Response>, signal: AbortSignal): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
