// merchant-payments webhook listen: receives deliveries on a local port, verifies each with the package's verifier,
// prints one line per delivery and, with --forward-to, passes verified ones (body and scheme headers) on to a local receiver, as
// `stripe listen --forward-to` does. The secret comes from WEBHOOK_SECRET only.
import { parseFlags } from '@merchant-payments/contract/internal/shared/parse-flags.js';
import { supervise } from '@merchant-payments/contract/internal/shared/supervise.js';
import { secretKeyList } from '@merchant-payments/contract/internal/webhooks/crypto.js';
import { DEFAULT_LISTEN_MAX_BODY_BYTES, startListener, type ListenLayout, type RunningListener } from './listener.js';

const NAME = 'merchant-payments webhook listen';
const SECRET_VARIABLE = 'WEBHOOK_SECRET';
const LAYOUTS: readonly ListenLayout[] = ['later', 'earlier', 'both'];
const usage = `usage: merchant-payments webhook listen [--port <port>] [--host <host>] [--forward-to <url>] [--layout later|earlier|both]
                                       [--timeout-ms <ms>] [--max-body-bytes <bytes>]

Receives webhook deliveries, verifies each with this package's verifier and the secret in ${SECRET_VARIABLE}, and prints
one line per delivery: verified ones to stdout (type, event id, object id, status, layout, and the forward target's
status), refused ones to stderr with the verifier's reason (answered 400). Runs until SIGINT, SIGTERM or SIGHUP.

  --port <port>                 TCP port (default 4040; 0 takes a free one, printed at start)
  --host <host>                 address to bind (default 127.0.0.1)
  --forward-to <url>            pass each verified delivery on to <url>: the raw body and only the delivery scheme's
                                headers (X-Event-ID, X-Event-Type, X-Signature, X-Timestamp, Content-Type,
                                User-Agent), and answer the sender with that URL's status and body; a failure to
                                forward is answered 502
  --layout later|earlier|both   which delivery layout to accept (default later; earlier has no X-Timestamp)
  --timeout-ms <ms>             how long the forward target may take to answer in full (default 10000); redirects are
                                not followed
  --max-body-bytes <bytes>      largest delivery read (default ${DEFAULT_LISTEN_MAX_BODY_BYTES}); a larger one is answered 413

The secret comes from ${SECRET_VARIABLE} only (a flag would end up in shell history and CI logs), and is never printed;
make one with: merchant-payments webhook secret

Exit codes: 0 stopped by SIGINT, SIGTERM or SIGHUP; 1 the listener could not start (port in use) or the process that
launched it is gone; 2 usage error (an unknown or malformed flag, no or a malformed ${SECRET_VARIABLE}).`;

function fail(message: string, code = 2): never {
  console.error(`${NAME}: ${message}`);
  process.exit(code);
}

/** A whole number from `min` to `max` given to `--flag`, or its default. */
function wholeNumber(flag: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    fail(`--${flag} must be a whole number from ${min} to ${max}, got "${text}"\n${usage}`);
  return value;
}

/** Runs the listener with `args`, the words after `webhook listen`; it serves until stopped, then exits the process. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags({
    name: NAME,
    usage,
    args,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      'forward-to': { type: 'string' },
      layout: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'max-body-bytes': { type: 'string' },
    },
  });
  const port = wholeNumber('port', flags.port, 4040, 0, 65535);
  const host = flags.host ?? '127.0.0.1';
  const layout = (flags.layout ?? 'later') as ListenLayout;
  if (!LAYOUTS.includes(layout)) fail(`--layout must be "later", "earlier" or "both", got "${flags.layout}"\n${usage}`);
  const forwardTo = flags['forward-to'] === undefined ? undefined : forwardUrl(flags['forward-to']);
  const forwardTimeoutMs = wholeNumber('timeout-ms', flags['timeout-ms'], 10_000, 1, 2 ** 31 - 1);
  const maxBodyBytes = wholeNumber(
    'max-body-bytes',
    flags['max-body-bytes'],
    DEFAULT_LISTEN_MAX_BODY_BYTES,
    1,
    64 * 1024 * 1024,
  );
  const secret = process.env[SECRET_VARIABLE];
  if (secret === undefined || secret === '')
    fail(
      `the ${SECRET_VARIABLE} environment variable must hold the endpoint's whsec_ secret (make one with: merchant-payments webhook secret)\n${usage}`,
    );
  try {
    secretKeyList(secret);
  } catch (error) {
    // Note: the key parser's messages name the problem, never the secret.
    fail(`${SECRET_VARIABLE}: ${(error as Error).message}`);
  }

  let listener: RunningListener;
  try {
    listener = await startListener({
      port,
      host,
      secret,
      layout,
      forwardTo,
      forwardTimeoutMs,
      maxBodyBytes,
      onVerified: (line) => console.log(line),
      onRefused: (line) => console.error(line),
    });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    fail(
      code === 'EADDRINUSE' ? `port ${port} is already in use; stop whatever holds it or pass another --port` : message,
      1,
    );
  }
  const target =
    forwardTo === undefined ? '' : `, forwarding verified deliveries to ${forwardTo.origin}${forwardTo.pathname}`;
  console.log(`${NAME}: listening on ${listener.url} (${layout} layout${target})`);
  supervise({ name: NAME, command: [], env: process.env, close: () => listener.close() });
}

/** The forward target as an absolute http(s) URL, or a usage error. */
function forwardUrl(value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    fail(`--forward-to must be an absolute http:// or https:// URL, got "${value}"\n${usage}`);
  return url;
}
