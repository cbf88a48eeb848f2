// The receiver behind `merchant-payments webhook listen`: verifies each delivery with the package's verifier, tells
// what it got in one line, and forwards a verified delivery's body and scheme headers to a local URL, answering with
// that URL's status.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  applyServerTimeouts,
  type ServerTimeouts,
} from '@merchant-payments/contract/internal/shared/server-timeouts.js';
import { readBody, send } from '@merchant-payments/contract/internal/webhooks/adapters/node.js';
import {
  bodyTimeout,
  notPost,
  ok,
  problem,
  rawBodyUnavailable,
  rejected,
  tooLarge,
  type WebhookAnswer,
} from '@merchant-payments/contract/internal/webhooks/adapters/problem.js';
import { deliver } from '@merchant-payments/contract/internal/webhooks/deliver.js';
import { WebhookVerificationError } from '@merchant-payments/contract/internal/webhooks/errors.js';
import { WEBHOOK_HEADERS } from '@merchant-payments/contract/internal/webhooks/headers.js';
import { WebhookSendError } from '@merchant-payments/contract/internal/webhooks/send-error.js';
import { verifyWebhookDelivery, type VerifiedWebhook } from '@merchant-payments/contract/internal/webhooks/verify.js';

/** Which layouts the listener accepts: `later` (default), `earlier` only, or `both`. */
export type ListenLayout = 'later' | 'earlier' | 'both';

/** Options of createListenHandler. */
export interface ListenHandlerOptions {
  /** The endpoint's `whsec_…` secret; checked by the verifier on the first delivery. */
  secret: string;
  layout?: ListenLayout;
  /** Where verified deliveries go on to: the raw body and the delivery scheme's headers (FORWARDED_HEADERS) only. */
  forwardTo?: URL | undefined;
  /** Largest body read, in bytes (default 256 KiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** Longest wait for a whole body (default 10 s); a slower one gets 408. */
  readTimeoutMs?: number;
  /** How long the forward target may take to answer in full (default 10 s). */
  forwardTimeoutMs?: number;
  /** How much of the forward target's answer is read and passed back (default 64 KiB). */
  maxForwardResponseBytes?: number;
  /** Told one line per verified delivery. */
  onVerified(line: string): void;
  /** Told one line per refused delivery and per failed forward. */
  onRefused(line: string): void;
}

export const DEFAULT_LISTEN_MAX_BODY_BYTES = 256 * 1024;
const DEFAULT_READ_TIMEOUT_MS = 10_000;
const DEFAULT_FORWARD_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_FORWARD_RESPONSE_BYTES = 64 * 1024;
/** The headers of the delivery scheme: the only ones passed on, lower-cased as Node reads them. */
export const FORWARDED_HEADERS: readonly string[] = [...Object.values(WEBHOOK_HEADERS), 'Content-Type'].map((name) =>
  name.toLowerCase(),
);

/** A request handler for node:http that verifies, reports and forwards as described above; it never rejects. */
export function createListenHandler(
  options: ListenHandlerOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const limits = {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_LISTEN_MAX_BODY_BYTES,
    readTimeoutMs: options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS,
  };
  return async (req, res) => {
    let answer: WebhookAnswer;
    try {
      answer = await handle(req, limits, options);
    } catch (error) {
      options.onRefused(`failed: ${error instanceof Error ? error.message : String(error)}`);
      answer = problem(500, 'listener_failed', 'The listener could not handle this delivery.');
    }
    send(res, answer);
  };
}

async function handle(
  req: IncomingMessage,
  limits: { maxBodyBytes: number; readTimeoutMs: number },
  options: ListenHandlerOptions,
): Promise<WebhookAnswer> {
  if (req.method !== 'POST') {
    options.onRefused(`refused ${req.method} ${req.url}: deliveries are POST requests`);
    return notPost();
  }
  let body;
  try {
    body = await readBody(req, limits);
  } catch {
    options.onRefused('refused: the sender closed the connection before the body ended');
    return rawBodyUnavailable();
  }
  if (body === 'too_large') {
    options.onRefused(`refused body_too_large: the body exceeds ${limits.maxBodyBytes} bytes`);
    return tooLarge(limits.maxBodyBytes);
  }
  if (body === 'timed_out') {
    options.onRefused(`refused body_timeout: the body did not arrive within ${limits.readTimeoutMs} ms`);
    return bodyTimeout();
  }
  const layout = options.layout ?? 'later';
  let verified: VerifiedWebhook;
  try {
    verified = await verifyWebhookDelivery(body, req.headers, options.secret, {
      allowEarlierLayout: layout !== 'later',
    });
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    // Note: the verifier's messages never carry the secret or a signature, so they are printed whole.
    options.onRefused(`rejected ${error.reason}: ${error.message}`);
    return rejected(error, 400);
  }
  if (layout === 'earlier' && verified.layout === 'later') {
    options.onRefused(
      'rejected unexpected_layout: the delivery has X-Timestamp (the later layout); this listener takes the earlier one (--layout earlier)',
    );
    return problem(400, 'unexpected_layout', 'This listener accepts deliveries of the earlier layout only.');
  }
  const summary = describe(verified);
  if (options.forwardTo === undefined) {
    options.onVerified(summary);
    return ok({});
  }
  try {
    const answer = await deliver(
      options.forwardTo,
      { headers: forwardedHeaders(req.headers), body: new Uint8Array(body) },
      {
        timeoutMs: options.forwardTimeoutMs ?? DEFAULT_FORWARD_TIMEOUT_MS,
        maxResponseBytes: options.maxForwardResponseBytes ?? DEFAULT_MAX_FORWARD_RESPONSE_BYTES,
        fetch,
      },
    );
    options.onVerified(`${summary} -> ${answer.status}`);
    return {
      status: answer.status,
      headers: answer.contentType === null ? {} : { 'content-type': answer.contentType },
      body: answer.body,
    };
  } catch (error) {
    if (!(error instanceof WebhookSendError)) throw error;
    options.onVerified(`${summary} -> not forwarded (${error.reason})`);
    options.onRefused(`forward failed ${error.reason}: ${error.message}`);
    return problem(502, 'forward_failed', 'The delivery verified, but the listener could not forward it.');
  }
}

/** `verified <type> <event id> <object id> <status> (<layout> layout)`; a dash for what the event does not carry. */
function describe({ event, id, layout }: VerifiedWebhook): string {
  const data = (event.data ?? {}) as { id?: unknown; status?: unknown };
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : '-');
  return `verified ${text(event.type)} ${id} ${text(data.id)} ${text(data.status)} (${layout} layout)`;
}

// Note: an allow-list, not a deny-list: the signature covers the body and the scheme's headers only, so anything else
// (Authorization, Cookie, X-Internal-…) could have been added by whoever replays a captured delivery.
function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) forwarded[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return forwarded;
}

/** A listening webhook listener. */
export interface RunningListener {
  url: string;
  close(): Promise<void>;
}

/** Serves createListenHandler on host:port (0 takes a free port) and resolves once it listens. */
export function startListener(
  options: ListenHandlerOptions & { port: number; host: string; timeouts?: ServerTimeouts },
): Promise<RunningListener> {
  const handle = createListenHandler(options);
  // Note: the handler answers every request, its own failures included (500 listener_failed), so it never rejects.
  const server = applyServerTimeouts(
    createServer((req, res) => void handle(req, res)),
    options.timeouts,
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      resolve({
        url: `http://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
