// merchant-payments webhook listen: receives deliveries on a local port, verifies each with the package's verifier,
// prints one line per delivery and, with --forward-to, passes verified ones (body and scheme headers) on to a local receiver, as
// `stripe listen --forward-to` does. The secret comes from WEBHOOK_SECRET only. With --from, it receives nothing
// locally: it connects out to a sandbox's listener and forwards its tenant's webhooks (forward.ts), on the tenant's
// credentials from PAYMENTS_ACCESS_TOKEN or PAYMENTS_PUBLIC_KEY and PAYMENTS_SECRET_KEY.
import { parseFlags } from '@merchant-payments/contract/internal/shared/parse-flags.js';
import { supervise } from '@merchant-payments/contract/internal/shared/supervise.js';
import { secretKeyList } from '@merchant-payments/contract/internal/webhooks/crypto.js';
import { DEFAULT_LISTEN_MAX_BODY_BYTES, startListener, type ListenLayout, type RunningListener } from './listener.js';

const NAME = 'merchant-payments webhook listen';
const SECRET_VARIABLE = 'WEBHOOK_SECRET';
const ACCESS_TOKEN_VARIABLE = 'PAYMENTS_ACCESS_TOKEN';
const PUBLIC_KEY_VARIABLE = 'PAYMENTS_PUBLIC_KEY';
const SECRET_KEY_VARIABLE = 'PAYMENTS_SECRET_KEY';
/** The flags of the local mode, which --from replaces. */
const LOCAL_ONLY = ['port', 'host', 'layout', 'max-body-bytes'] as const;
const LAYOUTS: readonly ListenLayout[] = ['later', 'earlier', 'both'];
const usage = `usage: merchant-payments webhook listen [--port <port>] [--host <host>] [--forward-to <url>] [--layout later|earlier|both]
                                       [--timeout-ms <ms>] [--max-body-bytes <bytes>]
   or: merchant-payments webhook listen --from <sandbox URL> --forward-to <url> [--timeout-ms <ms>]

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

With --from, webhooks come from a sandbox instead, over one connection this command opens (a WebSocket; the sandbox
never connects to this machine), so it works against a hosted sandbox from behind NAT:

  --from <sandbox URL>          the sandbox (http:// or https://), as the tenant in ${ACCESS_TOKEN_VARIABLE}, or in
                                ${PUBLIC_KEY_VARIABLE} and ${SECRET_KEY_VARIABLE} (environment only, never printed)
  --forward-to <url>            required: every status change of the tenant is POSTed there, signed by the sandbox
                                with the secret printed at start (the first line on stdout), one line per attempt

The sandbox counts the connection as one of the tenant's webhook endpoints while it lasts: the answer (status and
time) is each attempt's outcome in its delivery log, and failed attempts are retried on its schedule. After a drop it
reconnects with backoff and gets what fell due meanwhile; SIGINT, SIGTERM or SIGHUP close it, which removes the
endpoint. --port, --host, --layout and --max-body-bytes do not apply, and ${SECRET_VARIABLE} is not read.

Exit codes: 0 stopped by SIGINT, SIGTERM or SIGHUP; 1 the listener could not start (port in use), the process that
launched it is gone or, with --from, the sandbox refused the connection (401 credentials, 422 endpoint quota) or could
not be reached at the first try; 2 usage error (an unknown or malformed flag, no or a malformed ${SECRET_VARIABLE}, or
with --from no credentials in the environment).`;

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
      from: { type: 'string' },
    },
  });
  if (flags.from !== undefined) return forwardFrom(flags.from, flags);
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

/** The --from mode: checks its flags and the credentials, then forwards until stopped. */
async function forwardFrom(fromText: string, flags: Partial<Record<string, string | boolean>>): Promise<void> {
  const given = LOCAL_ONLY.find((flag) => flags[flag] !== undefined);
  if (given) fail(`--${given} listens locally, so it cannot be used with --from\n${usage}`);
  const from = URL.canParse(fromText) ? new URL(fromText) : undefined;
  if ((from?.protocol !== 'http:' && from?.protocol !== 'https:') || from.username !== '' || from.password !== '')
    fail(
      `--from must be the sandbox's absolute http:// or https:// URL, without a user name or password, got "${fromText}"\n${usage}`,
    );
  const target = flags['forward-to'];
  if (typeof target !== 'string') fail(`--from needs --forward-to <url>, where each webhook is POSTed\n${usage}`);
  const forwardTo = forwardUrl(target);
  const timeout = flags['timeout-ms'];
  const timeoutMs = wholeNumber(
    'timeout-ms',
    typeof timeout === 'string' ? timeout : undefined,
    10_000,
    1,
    2 ** 31 - 1,
  );
  const credentials = credentialHeaders();
  const { startForwarder } = await import('./forward.js');
  const forwarder = startForwarder({
    from,
    forwardTo,
    credentials,
    timeoutMs,
    onReady: (line) => console.log(line),
    onForwarded: (line) => console.log(line),
    onNotice: (line) => console.error(`${NAME}: ${line}`),
    onFatal: (message) => fail(message, 1),
  });
  supervise({ name: NAME, command: [], env: process.env, close: () => forwarder.close() });
}

/** Either variant's credential headers from the environment, or a usage error naming the variables. */
function credentialHeaders(): Record<string, string> {
  const token = process.env[ACCESS_TOKEN_VARIABLE] || undefined;
  const publicKey = process.env[PUBLIC_KEY_VARIABLE] || undefined;
  const secretKey = process.env[SECRET_KEY_VARIABLE] || undefined;
  if (token !== undefined) return { authorization: `Bearer ${token}` };
  if (publicKey !== undefined && secretKey !== undefined)
    return { 'x-public-key': publicKey, 'x-secret-key': secretKey };
  return fail(
    `--from needs the tenant's credentials in the environment: ${ACCESS_TOKEN_VARIABLE} (Variant A), or ${PUBLIC_KEY_VARIABLE} and ${SECRET_KEY_VARIABLE} (Variant B)\n${usage}`,
  );
}

/** The forward target as an absolute http(s) URL, or a usage error. */
function forwardUrl(value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    fail(`--forward-to must be an absolute http:// or https:// URL, got "${value}"\n${usage}`);
  return url;
}
