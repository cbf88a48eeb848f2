// One bounded POST for the test sender: a time-out over headers and body, a cap on the answer's size, no redirects.
import { readBounded } from '../shared/read-bounded.js';
import { MAX_TIMER_MS } from '../shared/timers.js';
import { WebhookSendError } from './send-error.js';

/** How long a delivery may take by default, headers and body together. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** How many bytes of the receiver's answer are read by default. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/** What one delivery may use. */
export interface DeliveryLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  fetch: (url: string, init: RequestInit) => Promise<Response>;
}

/** Throws a RangeError naming the option when a limit is out of range. */
export function checkLimits(timeoutMs: number, maxResponseBytes: number): void {
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new RangeError(
      `timeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMER_MS}, got ${String(timeoutMs)}.`,
    );
  }
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 0) {
    throw new RangeError(
      `maxResponseBytes must be a whole number of bytes, 0 or more, got ${String(maxResponseBytes)}.`,
    );
  }
}

/** What the receiver answered: its status, its body as text and its Content-Type, if any. */
export interface DeliveryAnswer {
  status: number;
  body: string;
  contentType: string | null;
}

/** POSTs to `url` and reads the answer within `limits`; throws WebhookSendError when that is not possible. */
export async function deliver(
  url: URL,
  init: { headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> },
  limits: DeliveryLimits,
): Promise<DeliveryAnswer> {
  const where = describe(url);
  const controller = new AbortController();
  let timedOut = false;
  // Note: raced against every step, so a fetch or a body stream that ignores the signal is bounded too.
  const aborted = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => {});
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`No complete answer within ${limits.timeoutMs} ms`, 'TimeoutError'));
  }, limits.timeoutMs);
  try {
    const request = limits.fetch(url.href, { method: 'POST', ...init, redirect: 'manual', signal: controller.signal });
    const response = await Promise.race([request, aborted]);
    if (response.status >= 300 && response.status < 400) throw redirected(response, url, where);
    const body = await readCapped(response, limits.maxResponseBytes, aborted, where);
    return {
      status: response.status,
      body: new TextDecoder().decode(body),
      contentType: response.headers.get('content-type'),
    };
  } catch (error) {
    if (error instanceof WebhookSendError) throw error;
    if (timedOut) {
      const message = `The receiver at ${where} sent no complete answer within ${limits.timeoutMs} ms. A receiver should acknowledge at once and process later; check that it is running, or raise timeoutMs.`;
      throw new WebhookSendError('timeout', message, { cause: error });
    }
    const message = `Could not deliver to ${where}: ${innermostMessage(error)}. Check that the receiver is running and that the URL is right.`;
    throw new WebhookSendError('network', message, { cause: error });
  } finally {
    clearTimeout(timer);
    // Note: also drops the connection of an answer that was refused before it was read to the end.
    controller.abort();
  }
}

function redirected(response: Response, url: URL, where: string): WebhookSendError {
  void response.body?.cancel().catch(() => {});
  const header = response.headers.get('location');
  let location: string | undefined;
  try {
    location = header === null ? undefined : describe(new URL(header, url));
  } catch {
    location = undefined;
  }
  const target =
    location === undefined ? (header === null ? 'no Location header' : 'an invalid Location header') : location;
  const message = `The receiver at ${where} answered ${response.status}, a redirect to ${target}. Webhooks are not redirected: configure the final address as the receiver's URL.`;
  return new WebhookSendError('redirect', message, location === undefined ? {} : { location });
}

function readCapped(response: Response, max: number, aborted: Promise<never>, where: string): Promise<Uint8Array> {
  const tooLarge = () => {
    const message = `The receiver at ${where} answered with more than ${max} bytes, so the answer was not read. A receiver should answer with a short body; raise maxResponseBytes if this one must be longer.`;
    return new WebhookSendError('response_too_large', message);
  };
  return readBounded(response, { maxBytes: max, tooLarge, stop: aborted });
}

// Note: credentials and the query string are left out of messages, as either may carry a token.
function describe(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function innermostMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
