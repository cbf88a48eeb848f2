// `merchant-payments webhook listen --from <sandbox>`: one WebSocket out to the sandbox's Connect Webhook Listener,
// each attempt it carries POSTed to the local --forward-to URL with the headers and body exactly as the sandbox signed
// them, and the local answer (status and time, or why there was none) sent back as the attempt's outcome. After a drop
// it reconnects with backoff, naming its listener, so that the sandbox sends what fell due meanwhile.
import WebSocket from 'ws';
import { deliver } from '@merchant-payments/contract/internal/webhooks/deliver.js';
import { WebhookSendError } from '@merchant-payments/contract/internal/webhooks/send-error.js';

/** The first wait before reconnecting, and the longest. */
const BACKOFF_MS = [250, 10_000] as const;
/** How long without a ping from the sandbox (it pings every 15 s) before the connection is taken for dead. */
const SILENCE_MS = 40_000;
/** How much of the local receiver's answer is read. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** What the forwarder needs: where, with which credential headers, and where it reports. */
export interface ForwarderOptions {
  /** The sandbox's base URL (http or https). */
  from: URL;
  forwardTo: URL;
  /** Either variant's credential headers; never printed. */
  credentials: Record<string, string>;
  /** The longest the local receiver may take, besides the sandbox's own time-out. */
  timeoutMs: number;
  /** Told the secret (on the first connection, and whenever the sandbox made a new listener). */
  onReady(line: string): void;
  /** Told one line per forwarded attempt. */
  onForwarded(line: string): void;
  /** Told about drops and reconnections. */
  onNotice(line: string): void;
  /** Told why the forwarder gave up, with the exit code (1): refused credentials, no sandbox at the first try. */
  onFatal(message: string): void;
}

/** A running forwarder. */
export interface Forwarder {
  /** Closes the connection with 1000, which removes the listener at once. */
  close(): Promise<void>;
}

interface AttemptFrame {
  type: 'attempt';
  delivery_id: string;
  attempt: number;
  timeout_ms: number;
  headers: Record<string, string>;
  body: string;
}

/** Starts forwarding; reports through the options' callbacks. */
export function startForwarder(options: ForwarderOptions): Forwarder {
  const base = `${options.from.origin}${options.from.pathname.replace(/\/+$/, '')}`.replace(/^http/, 'ws');
  let listener: { id: string; secret: string } | undefined;
  let socket: WebSocket | undefined;
  let stopping = false;
  let everConnected = false;
  let wait: number = BACKOFF_MS[0];
  let retry: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    const url = new URL(`${base}/_sandbox/webhook-listener`);
    // Note: origin and path only, as the sandbox shows it: a query string may carry a token of the receiver's.
    url.searchParams.set('forward_to', `${options.forwardTo.origin}${options.forwardTo.pathname}`);
    // Note: the listener's id is no secret; the credentials travel in headers only.
    if (listener) url.searchParams.set('listener', listener.id);
    const ws = new WebSocket(url, { headers: options.credentials, handshakeTimeout: 10_000 });
    socket = ws;
    // Note: a sandbox gone without a word (a network drop) sends no close; its pings stopping is the only sign.
    let silence: ReturnType<typeof setTimeout> | undefined;
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => ws.terminate(), SILENCE_MS);
    };
    ws.on('open', heard);
    ws.on('ping', heard);
    ws.on('unexpected-response', (_request, response) => {
      // Note: ws emits neither error nor close for an answer it hands over, so this connection is done here.
      socket = undefined;
      let text = '';
      response.on('data', (chunk: Buffer) => (text += String(chunk).slice(0, 8192)));
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const detail = problemDetail(text) ?? `the sandbox answered ${status}`;
        // Note: credentials and quotas do not fix themselves; a sandbox restarting (5xx) does.
        if (status === 401 || status === 400 || status === 422) {
          stopping = true;
          options.onFatal(`${status}: ${detail}`);
        } else {
          again(`the sandbox answered ${status}: ${detail}`);
        }
      });
    });
    ws.on('error', (error: NodeJS.ErrnoException) => {
      if (!everConnected) {
        stopping = true;
        options.onFatal(`could not connect to the sandbox at ${options.from.origin}: ${error.code ?? error.message}`);
      }
    });
    ws.on('message', (data) => {
      let frame: { type?: unknown; listener?: { id: string; secret: string } };
      try {
        frame = JSON.parse((data as Buffer).toString('utf8')) as typeof frame;
      } catch {
        return ws.close(1008, 'A frame is not JSON.');
      }
      if (frame.type === 'ready' && frame.listener) {
        const same = listener?.id === frame.listener.id && listener.secret === frame.listener.secret;
        listener = frame.listener;
        everConnected = true;
        wait = BACKOFF_MS[0];
        if (same) options.onNotice(`reconnected to listener ${listener.id}`);
        else
          options.onReady(
            `Ready: listener ${listener.id} forwards to ${options.forwardTo.origin}${options.forwardTo.pathname}; its webhook signing secret is ${listener.secret}`,
          );
      } else if (frame.type === 'attempt') {
        void forward(ws, frame as unknown as AttemptFrame);
      }
    });
    ws.on('close', (code, reason) => {
      clearTimeout(silence);
      if (socket !== ws || stopping) return;
      // Note: 4004 says the listener is gone (its lease ran out); the next connection makes a new one.
      if (code === 4004) listener = undefined;
      again(`connection closed (${code}${reason.length > 0 ? `: ${String(reason)}` : ''})`);
    });
  };

  const again = (why: string) => {
    if (stopping || retry) return;
    const delay = Math.round(wait * (0.75 + Math.random() / 2));
    wait = Math.min(wait * 2, BACKOFF_MS[1]);
    options.onNotice(`${why}; reconnecting in ${delay} ms`);
    retry = setTimeout(() => {
      retry = undefined;
      connect();
    }, delay);
  };

  const forward = async (ws: WebSocket, frame: AttemptFrame) => {
    const started = performance.now();
    const result: { status: number } | { error: string } = await deliver(
      options.forwardTo,
      { headers: frame.headers, body: frame.body },
      { timeoutMs: Math.min(options.timeoutMs, frame.timeout_ms), maxResponseBytes: MAX_RESPONSE_BYTES, fetch },
    ).then(
      ({ status }) => ({ status }),
      (error: unknown) => ({ error: failureOf(error, Math.min(options.timeoutMs, frame.timeout_ms)) }),
    );
    const duration = Math.round(performance.now() - started);
    options.onForwarded(`${describe(frame)} -> ${'status' in result ? result.status : result.error} (${duration} ms)`);
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(
      JSON.stringify({
        type: 'outcome',
        delivery_id: frame.delivery_id,
        attempt: frame.attempt,
        duration_ms: Math.min(duration, 600_000),
        ...result,
      }),
    );
  };

  connect();
  return {
    async close() {
      stopping = true;
      clearTimeout(retry);
      const ws = socket;
      if (!ws || ws.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1000);
        setTimeout(resolve, 2_000).unref();
      });
    },
  };
}

/** `forwarded <type> <event id> <object id> <status> (attempt n)`, read from the signed body; dashes for what it lacks. */
function describe(frame: AttemptFrame): string {
  let event: { type?: unknown; id?: unknown; data?: { id?: unknown; status?: unknown } } = {};
  try {
    event = JSON.parse(frame.body) as typeof event;
  } catch {
    // Note: the sandbox signs JSON, so this is only a guard for the line.
  }
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : '-');
  return `forwarded ${text(event.type)} ${text(event.id)} ${text(event.data?.id)} ${text(event.data?.status)} (attempt ${frame.attempt})`;
}

/** A failed local POST as the delivery log words the sandbox's own: the class and a reason, never the URL. */
function failureOf(error: unknown, timeoutMs: number): string {
  if (!(error instanceof WebhookSendError)) return 'network: the request failed.';
  switch (error.reason) {
    case 'timeout':
      return `timeout: no complete answer within ${timeoutMs} ms.`;
    case 'response_too_large':
      return `response_too_large: the answer was longer than ${MAX_RESPONSE_BYTES} bytes.`;
    case 'redirect':
      return 'redirect: the endpoint answered with a redirect, which deliveries do not follow.';
    case 'network': {
      for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
        const code = (cause as { code?: unknown }).code;
        if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return `network: ${code}.`;
      }
      return 'network: no connection to the endpoint.';
    }
  }
}

/** The `detail` of a problem+json body, if it is one. */
function problemDetail(text: string): string | undefined {
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    return typeof detail === 'string' ? detail : undefined;
  } catch {
    return undefined;
  }
}
