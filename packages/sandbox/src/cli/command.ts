// merchant-payments sandbox (alias merchant-payments-sandbox): the stateful sandbox of both variants as a command. The
// dispatcher and bin/merchant-payments-sandbox.mjs call main; tests run this file with tsx.
//   merchant-payments sandbox [flags] [-- <command> [args...]]: every flag, its variable and default are in config.ts;
//   the secrets (WEBHOOK_SECRET, SANDBOX_ADMIN_TOKEN) and the database (DATABASE_URL or PG*) come from the environment only.
// With a command after `--`, the sandbox runs only while the command does, and the exit code is the command's.
import { isEntry, runCommand } from '@merchant-payments/contract/internal/shared/entry.js';
import { parseCommandLine } from '@merchant-payments/contract/internal/shared/parse-flags.js';
import { supervise } from '@merchant-payments/contract/internal/shared/supervise.js';
import { hasUserInfo } from '../control/checks.js';
import { openSandbox, SHUTDOWN_GRACE_MS, type Sandbox } from '../create-sandbox.js';
import { parseAllowEntry } from '../delivery/egress.js';
import { environmentUsage, readSettings, settingOptions, settingsUsage } from './config.js';
import {
  generateWebhookSecret,
  MAX_WEBHOOK_ENDPOINTS,
  MIN_ADMIN_TOKEN_LENGTH,
  type SandboxOptions,
} from '../options.js';
import { createSandboxLogger } from '../http/signals.js';
import { MissingPackageError } from '../stores/postgres/store.js';

const NAME = 'merchant-payments-sandbox';
/** The variable that tells the command where the sandbox listens. */
const URL_VARIABLE = 'MERCHANT_PAYMENTS_SANDBOX_URL';
const SECRET_VARIABLE = 'WEBHOOK_SECRET';
const ADMIN_TOKEN_VARIABLE = 'SANDBOX_ADMIN_TOKEN';
const DATABASE_VARIABLE = 'DATABASE_URL';
/** The longest a stop may take: the grace for work in flight, then time to close the store's pool. */
const STOP_WITHIN_MS = SHUTDOWN_GRACE_MS + 5_000;
const usage = `usage: merchant-payments sandbox [--port <port>] [--host <host>] [--clock real|manual] [--store memory|postgres]
                                 [--auth open|issued] [--webhook-url <url>]... [--log json] [other flags below]
                                 [-- <command> [args...]]
   or: merchant-payments sandbox tenant create|list|show|rotate|revoke --url <sandbox URL> (see: sandbox tenant --help)
   or: ${NAME} (the same flags)

Serves a stateful sandbox of both variants on one port: Variant A at /payments… (Authorization: Bearer <token>),
Variant B at /merchant/v1/… (X-Public-Key and X-Secret-Key). In open mode (the default) each token or public key is a
tenant of its own; in issued mode only the tenants the admin API provisioned get in.

Every flag can be set by its environment variable instead; the flag wins.

${settingsUsage()}
  -- <command>              run <command> once the sandbox listens, with ${URL_VARIABLE} set (and
                            ${SECRET_VARIABLE} when the secret was generated), in a process group of its own; when it
                            exits, stop what it left running and the sandbox, and exit with its code. SIGINT,
                            SIGTERM and SIGHUP are passed on.

From the environment only, since a flag would show in ps and shell history:
${environmentUsage()}

Besides both variants, it serves the operator's GET /healthz, /readyz (the store answers, its migrations applied) and
/metrics (Prometheus text), which are part of neither contract. On SIGTERM (or SIGINT, SIGHUP) it stops accepting
connections and the ticker, lets requests and webhook deliveries in flight finish for up to ${SHUTDOWN_GRACE_MS / 1000} s, closes
the store and exits; it exits within ${STOP_WITHIN_MS / 1000} s whatever is left. It writes a line to stderr as the stop begins
(why, and the requests in flight) and one as it ends (what it let finish), JSON with --log json. It serves until a
signal whoever launched it; --when-orphaned exit stops it when its launcher is gone.

Exit codes: 0 stopped by SIGINT, SIGTERM or SIGHUP (without a command); with a command, the command's code (128 + n
when a signal n ended it, 127 when it could not be started); 1 the sandbox could not start (port in use, database
unreachable) or, with a command or --when-orphaned exit, the process that launched it is gone; 2 usage error (a bad
flag or variable, --store postgres without pg and node-pg-migrate installed, too).`;

function fail(message: string, code = 2): never {
  console.error(`${NAME}: ${message}`);
  process.exit(code);
}

/**
 * Runs the sandbox with `args`, the words after the command's name; it serves until stopped, then exits the process.
 * `tenant …` is the admin API's client instead (tenant-command.ts), which resolves to its exit code.
 */
export async function main(args: string[]): Promise<number | void> {
  if (args[0] === 'tenant') return (await import('./tenant-command.js')).main(args.slice(1));
  const { flags, command } = parseCommandLine({
    name: NAME,
    usage,
    args,
    // Note: --state is parsed only to say what replaced it.
    options: { ...settingOptions(), state: { type: 'string' } },
  });
  if (flags.state !== undefined)
    fail(
      `--state was removed: to keep the sandbox's state across restarts, run it with --store postgres and ${DATABASE_VARIABLE} set (see the sandbox guide)`,
    );
  const { values, source } = readSettings(flags, process.env);
  const port = Number(values.port ?? 4020);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`${source.port} must be a TCP port from 0 to 65535, got "${values.port}"`);
  const clock = values.clock ?? 'real';
  if (clock !== 'real' && clock !== 'manual') fail(`${source.clock} must be "real" or "manual", got "${clock}"`);
  const store = values.store ?? 'memory';
  if (store !== 'memory' && store !== 'postgres')
    fail(`${source.store} must be "memory" or "postgres", got "${store}"`);
  const auth = values.auth ?? 'open';
  if (auth !== 'open' && auth !== 'issued') fail(`${source.auth} must be "open" or "issued", got "${auth}"`);
  const webhookUrls = values['webhook-url'] ?? [];
  for (const target of webhookUrls) {
    // Note: not quoted, since its user name or password is the problem.
    if (hasUserInfo(target))
      fail(
        `a ${source['webhook-url']} must be without a user name or password; pass a credential through the receiver's own configuration instead`,
      );
    if (!/^https?:$/.test(URL.canParse(target) ? new URL(target).protocol : ''))
      fail(`${source['webhook-url']} must be an absolute http:// or https:// URL, got "${target}"`);
  }
  const allowWebhookHosts = values['allow-webhook-host'] ?? [];
  for (const entry of allowWebhookHosts) {
    try {
      parseAllowEntry(entry);
    } catch {
      fail(
        `${source['allow-webhook-host']} must be a host name, an IP address or a CIDR range such as 10.0.0.0/8, got "${entry}"`,
      );
    }
  }
  const dashboard = values['no-dashboard'] ?? 'on';
  if (dashboard !== 'on' && dashboard !== 'off')
    fail(`${source['no-dashboard']} must be "on" or "off", got "${dashboard}"`);
  if (values.log !== undefined && values.log !== 'json') fail(`${source.log} must be "json", got "${values.log}"`);
  const whenOrphaned = values['when-orphaned'] ?? 'stay';
  if (whenOrphaned !== 'stay' && whenOrphaned !== 'exit')
    fail(`${source['when-orphaned']} must be "stay" or "exit", got "${whenOrphaned}"`);
  const number = (
    name:
      | 'rate-limit'
      | 'max-objects'
      | 'max-webhook-endpoints'
      | 'event-retention'
      | 'max-tenants'
      | 'tenant-idle-timeout'
      | 'max-test-tenants'
      | 'test-tenant-ttl'
      | 'merchant-concurrency'
      | 'merchant-queue-ms'
      | 'merchant-queue-length'
      | 'pool-size'
      | 'statement-timeout'
      | 'lock-timeout',
    what: string,
    ok: (n: number) => boolean,
  ) => {
    const text = values[name];
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!(text.trim() !== '' && Number.isFinite(n) && ok(n))) fail(`${source[name]} must be ${what}, got "${text}"`);
    return n;
  };
  const whole = (n: number) => Number.isInteger(n) && n > 0;
  const rateLimit = number('rate-limit', 'a positive number of requests per second', (n) => n > 0);
  const objects = number('max-objects', 'a whole number from 1', whole);
  const webhookEndpoints = number(
    'max-webhook-endpoints',
    `a whole number from 1 to ${MAX_WEBHOOK_ENDPOINTS}`,
    (n) => whole(n) && n <= MAX_WEBHOOK_ENDPOINTS,
  );
  const events = number('event-retention', 'a whole number of events from 1', whole);
  const maxTenants = number('max-tenants', 'a whole number from 1', whole);
  const idleSeconds = number('tenant-idle-timeout', 'a whole number of seconds from 1', whole);
  const maxTestTenants = number('max-test-tenants', 'a whole number from 1', whole);
  const testTenantSeconds = number('test-tenant-ttl', 'a whole number of seconds from 1', whole);
  // Note: PostgreSQL's time settings and Node's timers are 32-bit numbers of milliseconds.
  const ms = (n: number) => whole(n) && n <= 2_147_483_647;
  const merchantConcurrency = number('merchant-concurrency', 'a whole number from 1', whole);
  const merchantQueueMs = number('merchant-queue-ms', 'a whole number of milliseconds from 1', ms);
  const merchantQueueLength = number('merchant-queue-length', 'a whole number from 1', whole);
  const poolSize = number('pool-size', 'a whole number from 1', whole);
  const statementTimeoutMs = number('statement-timeout', 'a whole number of milliseconds from 1', ms);
  const lockTimeoutMs = number('lock-timeout', 'a whole number of milliseconds from 1', ms);
  const adminToken = process.env[ADMIN_TOKEN_VARIABLE] || undefined;
  // Note: the message never quotes the token.
  if (adminToken !== undefined && adminToken.length < MIN_ADMIN_TOKEN_LENGTH)
    fail(
      `${ADMIN_TOKEN_VARIABLE} must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters (openssl rand -base64 32 makes one)`,
    );
  const given = process.env[SECRET_VARIABLE];
  const webhookSecret = given ?? generateWebhookSecret();
  const options: SandboxOptions = {
    clock,
    seed: values.seed,
    store,
    auth,
    webhookUrls,
    webhookSecret,
    ...(adminToken === undefined ? {} : { adminToken }),
    ...(rateLimit === undefined ? {} : { rateLimit }),
    merchantConcurrency,
    merchantQueueMs,
    merchantQueueLength,
    poolSize,
    statementTimeoutMs,
    lockTimeoutMs,
    quotas: { objects, webhookEndpoints, events },
    tenants: { max: maxTenants, idleSeconds },
    testTenants: { max: maxTestTenants, idleSeconds: testTenantSeconds },
    allowWebhookHosts,
    dashboard: dashboard === 'on',
  };

  let sandbox: Sandbox;
  // Note: stderr, so that stdout keeps exactly the start-up lines scripts and the README read.
  const logger = values.log === 'json' ? createSandboxLogger() : undefined;
  // Note: the stop's two lines go where the request lines go, so that a JSON log stays JSON.
  const note = (message: string, fields: Record<string, unknown>) =>
    logger ? logger.info(fields, message) : console.error(`${NAME}: ${message}`);
  try {
    sandbox = await openSandbox({ ...options, ...(logger ? { logger } : {}) });
  } catch (error) {
    if (error instanceof MissingPackageError)
      fail(`--store postgres needs the pg and node-pg-migrate packages: npm install pg node-pg-migrate`);
    const { message } = error as Error;
    fail(
      store === 'postgres'
        ? `cannot use the PostgreSQL database named by ${databaseNamedBy()}: ${withoutPassword(message)}`
        : message,
      1,
    );
  }
  let url: string;
  try {
    // Note: this process serves nothing else, so the lighter globals of @hono/node-server change nothing a user sees.
    ({ url } = await sandbox.listen({ port, host: values.host ?? '127.0.0.1', overrideGlobalObjects: true }));
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    await sandbox.close().catch(() => {});
    // Note: the options' own messages never quote the secret; a taken port gets a sentence of its own.
    fail(
      code === 'EADDRINUSE' ? `port ${port} is already in use; stop whatever holds it or pass another --port` : message,
      1,
    );
  }
  console.log(
    `${NAME}: listening on ${url} (clock ${clock}; store ${store}; auth ${auth}; Variant A at ${url}/payments, Variant B at ${url}/merchant/v1/payments)`,
  );
  if (dashboard === 'on') console.log(`${NAME}: dashboard at ${url}/_dashboard/ (sign in with a tenant's credentials)`);
  // Note: origin and path only, as a query string may carry a token.
  for (const target of webhookUrls)
    console.log(`${NAME}: sending webhooks to ${new URL(target).origin}${new URL(target).pathname}`);
  // Note: printed once, by design, as `stripe listen` prints its secret: the receiver needs it to verify deliveries.
  // Only the --webhook-url deliveries use it: an endpoint registered through the control API gets a secret of its own.
  if (given === undefined && webhookUrls.length > 0)
    console.log(`${NAME}: webhook signing secret (generated; set ${SECRET_VARIABLE} to keep one): ${webhookSecret}`);

  supervise({
    name: NAME,
    command,
    env: { ...process.env, [URL_VARIABLE]: url, ...(given === undefined ? { [SECRET_VARIABLE]: webhookSecret } : {}) },
    exitWhenOrphaned: whenOrphaned === 'exit',
    // Note: a graceful stop and a crash must look different in the log: one line as it begins, one as it ends.
    async close(why) {
      const inFlight = sandbox.inFlight();
      note(`stopping (${why}): draining ${inFlight} request(s) in flight, for at most ${SHUTDOWN_GRACE_MS / 1000} s`, {
        event: 'stopping',
        reason: why,
        inFlight,
      });
      await sandbox.close({
        onClosed: ({ answered, cutOff, deliveriesSettled }) =>
          note(
            `stopped: ${answered} request(s) answered, ${cutOff} cut off; ${deliveriesSettled ? 'every webhook delivery in flight recorded' : 'webhook deliveries left in flight are taken again when their leases run out'}`,
            { event: 'stopped', answered, cutOff, deliveriesSettled },
          ),
      });
    },
    stopWithinMs: STOP_WITHIN_MS,
  });
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
