// merchant-payments sandbox (alias merchant-payments-sandbox): the stateful sandbox of both variants as a command. The
// dispatcher and bin/merchant-payments-sandbox.mjs call main; tests run this file with tsx.
//   merchant-payments sandbox [--port <port>] [--host <host>] [--clock real|manual] [--seed <seed>] [--store memory|postgres]
//                             [--webhook-url <url>]... [--log json] [--rate-limit <n>] [--max-objects <n>]
//                             [--max-webhook-endpoints <n>] [-- <command> [args...]]   (the secret from WEBHOOK_SECRET, the database
//                             from DATABASE_URL or PG*, the quotas also from SANDBOX_RATE_LIMIT, SANDBOX_MAX_OBJECTS, SANDBOX_MAX_WEBHOOK_ENDPOINTS)
// With a command after `--`, the sandbox runs only while the command does, and the exit code is the command's.
import { isEntry, runCommand } from '../cli/entry.js';
import { parseCommandLine } from '../cli/parse-flags.js';
import { supervise } from '../cli/supervise.js';
import { hasUserInfo } from './control/checks.js';
import { openSandbox, SHUTDOWN_GRACE_MS, type Sandbox } from './create-sandbox.js';
import { DEFAULT_MAX_OBJECTS, generateWebhookSecret, MAX_WEBHOOK_ENDPOINTS } from './options.js';
import { createSandboxLogger } from './signals.js';
import { MissingPackageError } from './stores/postgres/store.js';

const NAME = 'merchant-payments-sandbox';
/** The variable that tells the command where the sandbox listens. */
const URL_VARIABLE = 'MERCHANT_PAYMENTS_SANDBOX_URL';
const SECRET_VARIABLE = 'WEBHOOK_SECRET';
const DATABASE_VARIABLE = 'DATABASE_URL';
const RATE_LIMIT_VARIABLE = 'SANDBOX_RATE_LIMIT';
const OBJECTS_VARIABLE = 'SANDBOX_MAX_OBJECTS';
const ENDPOINTS_VARIABLE = 'SANDBOX_MAX_WEBHOOK_ENDPOINTS';
/** The longest a stop may take: the grace for work in flight, then time to close the store's pool. */
const STOP_WITHIN_MS = SHUTDOWN_GRACE_MS + 5_000;
const usage = `usage: merchant-payments sandbox [--port <port>] [--host <host>] [--clock real|manual] [--seed <seed>]
                                 [--store memory|postgres] [--webhook-url <url>]... [--log json] [--rate-limit <n>]
                                 [--max-objects <n>] [--max-webhook-endpoints <n>] [-- <command> [args...]]
   or: ${NAME} (the same flags)

Serves a stateful sandbox of both variants on one port: Variant A at /payments… (Authorization: Bearer <token>),
Variant B at /merchant/v1/… (X-Public-Key and X-Secret-Key). Each token or public key is a tenant of its own.

  --port <port>           TCP port (default 4020)
  --host <host>           address to bind (default 127.0.0.1)
  --clock real|manual     real (default): objects move on after short delays; manual: nothing happens until a
                          tenant's clock is advanced (POST /_sandbox/clock/advance)
  --seed <seed>           seed of the ids, for reproducible runs (default "sandbox")
  --store memory|postgres memory (default): tenants live in this process and are forgotten when it stops; postgres:
                          in the PostgreSQL database named by ${DATABASE_VARIABLE} (or the PG* variables), kept across
                          restarts and shared by every sandbox on it (needs: npm install pg node-pg-migrate)
  --webhook-url <url>     send every tenant's status-change webhooks to <url> (repeat for several); tenants see
                          that they have such an endpoint, never its URL; a URL with a user name or password is
                          refused
  --log json              write one JSON line per request (pino: request id, method, path, operation, status,
                          duration, tenant id; never a credential) to stderr; stdout keeps its start-up lines
  --rate-limit <n>        at most <n> requests per second per tenant in this instance (default: unlimited; or
                          ${RATE_LIMIT_VARIABLE}); past it a merchant request gets 429 rate_limited with Retry-After,
                          and control requests count without being refused. Each instance keeps its own buckets.
  --max-objects <n>       at most <n> payments, and as many payouts and appeals, per tenant (default ${DEFAULT_MAX_OBJECTS};
                          or ${OBJECTS_VARIABLE}); a create past it gets 422 quota_exceeded
  --max-webhook-endpoints <n>
                          at most <n> webhook endpoints per tenant, from 1 to ${MAX_WEBHOOK_ENDPOINTS} (default ${MAX_WEBHOOK_ENDPOINTS}; or
                          ${ENDPOINTS_VARIABLE}); past it, 422 limit_reached
  -- <command>            run <command> once the sandbox listens, with ${URL_VARIABLE} set (and ${SECRET_VARIABLE}
                          when the secret was generated), in a process group of its own; when it exits, stop what it
                          left running and the sandbox, and exit with its code. SIGINT, SIGTERM and SIGHUP are passed on.

The whsec_ secret webhooks are signed with comes from ${SECRET_VARIABLE} only (a flag would show in ps and shell
history); without it, a new secret is generated and printed once. Likewise, the database comes from ${DATABASE_VARIABLE}
or the standard PG* variables (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD), never from a flag.

Besides both variants, it serves the operator's GET /healthz, /readyz (the store answers, its migrations applied) and
/metrics (Prometheus text), which are part of neither contract. On SIGTERM (or SIGINT, SIGHUP) it stops accepting
connections and the ticker, lets requests and webhook deliveries in flight finish for up to ${SHUTDOWN_GRACE_MS / 1000} s, closes
the store and exits; it exits within ${STOP_WITHIN_MS / 1000} s whatever is left.

Exit codes: 0 stopped by SIGINT, SIGTERM or SIGHUP (without a command); with a command, the command's code (128 + n
when a signal n ended it, 127 when it could not be started); 1 the sandbox could not start (port in use, database
unreachable, bad secret) or the process that launched it is gone; 2 usage error (--store postgres without pg and
node-pg-migrate installed, too).`;

function fail(message: string, code = 2): never {
  console.error(`${NAME}: ${message}`);
  process.exit(code);
}

/** Runs the sandbox with `args`, the words after the command's name; it serves until stopped, then exits the process. */
export async function main(args: string[]): Promise<void> {
  const { flags, command } = parseCommandLine({
    name: NAME,
    usage,
    args,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      clock: { type: 'string' },
      seed: { type: 'string' },
      store: { type: 'string' },
      // Note: parsed only to say what replaced it.
      state: { type: 'string' },
      'webhook-url': { type: 'string', multiple: true },
      log: { type: 'string' },
      'rate-limit': { type: 'string' },
      'max-objects': { type: 'string' },
      'max-webhook-endpoints': { type: 'string' },
    },
  });
  const port = Number(flags.port ?? 4020);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a TCP port from 0 to 65535, got "${flags.port}"`);
  const clock = flags.clock ?? 'real';
  if (clock !== 'real' && clock !== 'manual') fail(`--clock must be "real" or "manual", got "${clock}"`);
  if (flags.state !== undefined) fail(`--state was removed: to keep the sandbox's state across restarts, run it with --store postgres and ${DATABASE_VARIABLE} set (see the sandbox guide)`);
  const store = flags.store ?? 'memory';
  if (store !== 'memory' && store !== 'postgres') fail(`--store must be "memory" or "postgres", got "${store}"`);
  for (const target of flags['webhook-url'] ?? []) {
    // Note: not quoted, since its user name or password is the problem.
    if (hasUserInfo(target)) fail("a --webhook-url must be without a user name or password; pass a credential through the receiver's own configuration instead");
  }
  if (flags.log !== undefined && flags.log !== 'json') fail(`--log must be "json", got "${flags.log}"`);
  const rateLimit = positive(flags['rate-limit'], '--rate-limit', RATE_LIMIT_VARIABLE, 'a positive number of requests per second', (n) => n > 0);
  const objects = positive(flags['max-objects'], '--max-objects', OBJECTS_VARIABLE, 'a whole number from 1', (n) => Number.isInteger(n) && n > 0);
  const webhookEndpoints = positive(flags['max-webhook-endpoints'], '--max-webhook-endpoints', ENDPOINTS_VARIABLE, `a whole number from 1 to ${MAX_WEBHOOK_ENDPOINTS}`, (n) => Number.isInteger(n) && n > 0 && n <= MAX_WEBHOOK_ENDPOINTS);
  const given = process.env[SECRET_VARIABLE];
  const webhookSecret = given ?? generateWebhookSecret();

  let sandbox: Sandbox;
  try {
    // Note: stderr, so that stdout keeps exactly the start-up lines scripts and the README read.
    const logger = flags.log === 'json' ? createSandboxLogger() : undefined;
    sandbox = await openSandbox({ clock, seed: flags.seed, store, webhookUrls: flags['webhook-url'] ?? [], webhookSecret, ...(logger ? { logger } : {}), ...(rateLimit === undefined ? {} : { rateLimit }), quotas: { objects, webhookEndpoints } });
  } catch (error) {
    if (error instanceof MissingPackageError) fail(`--store postgres needs the pg and node-pg-migrate packages: npm install pg node-pg-migrate`);
    const { message } = error as Error;
    fail(store === 'postgres' ? `cannot use the PostgreSQL database named by ${databaseNamedBy()}: ${withoutPassword(message)}` : message, 1);
  }
  let url: string;
  try {
    // Note: this process serves nothing else, so the lighter globals of @hono/node-server change nothing a user sees.
    ({ url } = await sandbox.listen({ port, host: flags.host ?? '127.0.0.1', overrideGlobalObjects: true }));
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    await sandbox.close().catch(() => {});
    // Note: the options' own messages never quote the secret; a taken port gets a sentence of its own.
    fail(code === 'EADDRINUSE' ? `port ${port} is already in use; stop whatever holds it or pass another --port` : message, 1);
  }
  console.log(`${NAME}: listening on ${url} (clock ${clock}; store ${store}; Variant A at ${url}/payments, Variant B at ${url}/merchant/v1/payments)`);
  // Note: origin and path only, as a query string may carry a token.
  for (const target of flags['webhook-url'] ?? []) console.log(`${NAME}: sending webhooks to ${new URL(target).origin}${new URL(target).pathname}`);
  // Note: printed once, by design, as `stripe listen` prints its secret: the receiver needs it to verify deliveries.
  if (given === undefined) console.log(`${NAME}: webhook signing secret (generated; set ${SECRET_VARIABLE} to keep one): ${webhookSecret}`);

  supervise({
    name: NAME,
    command,
    env: { ...process.env, [URL_VARIABLE]: url, ...(given === undefined ? { [SECRET_VARIABLE]: webhookSecret } : {}) },
    close: () => sandbox.close(),
    stopWithinMs: STOP_WITHIN_MS,
  });
}

/** A quota from its flag, else its variable: undefined when neither is set; exits 2 when it is not `what`. */
function positive(flag: string | undefined, name: string, variable: string, what: string, ok: (n: number) => boolean): number | undefined {
  const text = flag ?? process.env[variable];
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!(Number.isFinite(n) && ok(n))) fail(`${flag === undefined ? variable : name} must be ${what}, got "${text}"`);
  return n;
}

/** Which variable names the database: DATABASE_URL when set, else the PG* variables `pg` reads. */
function databaseNamedBy(): string {
  return process.env[DATABASE_VARIABLE] ? DATABASE_VARIABLE : `the PG* variables (${DATABASE_VARIABLE} is not set)`;
}

// Note: pg's messages do not quote the password, but a driver's error may quote the URL; neither reaches stderr.
function withoutPassword(message: string): string {
  const url = process.env[DATABASE_VARIABLE];
  let text = url ? message.split(url).join(DATABASE_VARIABLE) : message;
  for (const secret of [process.env.PGPASSWORD, ...passwordsOf(url)]) if (secret) text = text.split(secret).join('***');
  return text;
}

/** The password of a URL as written and decoded. */
function passwordsOf(url: string | undefined): string[] {
  if (!url || !URL.canParse(url)) return [];
  const { password } = new URL(url);
  return password === '' ? [] : [password, decodeURIComponent(password)];
}

if (isEntry(import.meta.url)) await runCommand(main);
