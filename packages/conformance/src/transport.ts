// The kit's HTTP: every request a stage sends to the server under test, with the rules the clients keep. A redirect is
// followed only within the origin of --base-url (the clients' rule, from packages/contract/src/client/redirect.ts), so Variant B's keys and
// a POST's body never reach another origin; a body is read within the clients' 8 MiB; every request ends by its
// time-out or by the run's deadline, whichever comes first, even when a custom fetch ignores its signal.
import { DEFAULT_MAX_RESPONSE_BYTES } from '@merchant-payments/contract/internal/client/options.js';
import { isRedirect, locationOf, refusal } from '@merchant-payments/contract/internal/client/redirect.js';
import { readBounded } from '@merchant-payments/contract/internal/shared/read-bounded.js';

/** The largest response body the kit reads, as the clients (8 MiB). */
export const MAX_RESPONSE_BYTES = DEFAULT_MAX_RESPONSE_BYTES;

/** A request as the kit sends it: the body as text, so that a redirect within the origin can send it again. */
export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** An answer, read whole within the cap. */
export interface Received {
  status: number;
  headers: Headers;
  text: string;
  /** Set when the answer is a redirect the kit did not follow, and says why. */
  unfollowed?: string;
}

/** No usable answer came: `answered` tells a server that answered too much from one that did not answer at all. */
export class NoAnswer extends Error {
  override name = 'NoAnswer';
  constructor(
    message: string,
    readonly answered: boolean,
  ) {
    super(message);
  }
}

/** The run's deadline passed before the request had its answer. */
export class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
}

/** What createTransport needs. */
export interface TransportOptions {
  /** The fetch to send with; default globalThis.fetch. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Aborts when the run's deadline passes. */
  deadline: AbortSignal;
}

class TooLarge extends Error {}

/** The fetch error and its cause, on one line: undici's own message is only "fetch failed". */
const messageOf = (error: unknown): string => {
  const { message, cause } = error as { message?: unknown; cause?: { message?: unknown; code?: unknown } };
  const because = cause && typeof cause.message === 'string' && cause.message !== '' ? `: ${cause.message}` : '';
  return `${typeof message === 'string' ? message : String(error)}${because}`;
};

/** The kit's send: one request, redirects within the origin, the body read within the cap; throws NoAnswer or DeadlinePassed. */
export function createTransport(options: TransportOptions): (outgoing: Outgoing) => Promise<Received> {
  const { timeoutMs, maxResponseBytes, deadline } = options;
  const fetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));

  return async function send(outgoing) {
    if (deadline.aborted) throw new DeadlinePassed("the run's deadline passed");
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([timeout, deadline]);
    // Note: a fetch that ignores its signal (an in-process one, say) is not waited for past the signal either.
    const stop = new Promise<never>((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
    );
    stop.catch(() => {});
    const request = (url: string) =>
      new Request(url, {
        method: outgoing.method,
        headers: outgoing.headers,
        body: outgoing.body,
        signal,
        redirect: 'manual',
      });
    try {
      let [response, url] = [await Promise.race([fetch(request(outgoing.url)), stop]), outgoing.url];
      let unfollowed: string | undefined;
      for (let hops = 0; isRedirect(response); hops += 1) {
        const location = locationOf(response, url);
        const why = refusal({
          mode: 'follow-same-origin',
          method: outgoing.method,
          status: response.status,
          from: outgoing.url,
          location,
          hops,
        });
        if (why !== undefined || location === undefined) {
          unfollowed = `the ${response.status} to ${location ?? '(no Location)'} was not followed: ${why ?? 'it has no Location'}`;
          break;
        }
        await response.body?.cancel().catch(() => {});
        [response, url] = [await Promise.race([fetch(request(location)), stop]), location];
      }
      const bytes = await readBounded(response, { maxBytes: maxResponseBytes, tooLarge: () => new TooLarge(), stop });
      const text = new TextDecoder().decode(bytes);
      return { status: response.status, headers: response.headers, text, ...(unfollowed ? { unfollowed } : {}) };
    } catch (error) {
      if (deadline.aborted) throw new DeadlinePassed("the run's deadline passed before the answer came");
      if (error instanceof TooLarge)
        throw new NoAnswer(
          `the body is larger than the ${maxResponseBytes} bytes the kit reads; the rest was not read`,
          true,
        );
      if (timeout.aborted) throw new NoAnswer(`no answer within ${timeoutMs} ms`, false);
      throw new NoAnswer(messageOf(error), false);
    }
  };
}
