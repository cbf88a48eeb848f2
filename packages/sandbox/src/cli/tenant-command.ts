// merchant-payments sandbox tenant create|list|show|rotate|revoke: the hosted sandbox's admin API (/_admin, packages/contract/openapi/admin/)
// from the command line. The sandbox command's main hands it the words after `tenant`. The admin token comes from
// SANDBOX_ADMIN_TOKEN only, and is never printed; what the API answers goes to stdout as JSON, a problem's detail to stderr.
import type { components } from '@merchant-payments/contract/generated/types/admin.js';
import { parseFlags } from '@merchant-payments/contract/internal/shared/parse-flags.js';
import { readBounded } from '@merchant-payments/contract/internal/shared/read-bounded.js';
import { MAX_OVERLAP_SECONDS } from '../stores/issued-credentials.js';

const NAME = 'merchant-payments sandbox tenant';
const TOKEN_VARIABLE = 'SANDBOX_ADMIN_TOKEN';
const URL_VARIABLE = 'MERCHANT_PAYMENTS_SANDBOX_URL';
const DEFAULT_URL = 'http://127.0.0.1:4020';
/** How long the sandbox may take to answer, and how much of its answer is read. */
const TIMEOUT_MS = 30_000;
const MAX_ANSWER_BYTES = 1024 * 1024;

const usage = `usage: merchant-payments sandbox tenant create [--format json|onboarding] [--public-url <URL>] [--url <sandbox URL>]
   or: merchant-payments sandbox tenant list [--limit <n>] [--starting-after <tenant id>] [--url <sandbox URL>]
   or: merchant-payments sandbox tenant show <tenant id> [--url <sandbox URL>]
   or: merchant-payments sandbox tenant rotate <tenant id> [--overlap <seconds>] [--url <sandbox URL>]
   or: merchant-payments sandbox tenant revoke <tenant id> [--url <sandbox URL>]
   or: merchant-payments-sandbox tenant … (the same)

Provisions the tenants of a sandbox in issued mode (merchant-payments sandbox --auth issued) through its admin API
(/_admin), which the sandbox serves only when it was started with ${TOKEN_VARIABLE} set.

Commands:
  create                    issue a new tenant; prints {"id","access_token","public_key","secret_key"} as one line of
                            JSON. The access token and the secret key are shown this once: the sandbox keeps only
                            their hashes. With --format onboarding, prints instead what to send the merchant: the
                            base URL of each variant and of the control API, the credentials, the limits and the rule
                            for webhook endpoints (GET /_admin/settings, read before the tenant is issued)
  list                      print the tenants, newest first, as a JSON array (never a secret); when more follow, says
                            on stderr which --starting-after reads on
  show <tenant id>          print one tenant's record as JSON
  rotate <tenant id>        issue the tenant a new access token and secret key (its public key stays); prints them as
                            JSON with previous_credentials_expire_at, until when the replaced ones still work
  revoke <tenant id>        stop every credential of the tenant at once and delete its sandbox state; prints nothing

  --url <sandbox URL>       the sandbox (default ${URL_VARIABLE}, else ${DEFAULT_URL})
  --format json|onboarding  create: one line of JSON (the default), or the text to send the merchant
  --public-url <URL>        create --format onboarding: the address merchants reach the sandbox at, when it is not
                            --url (which may be an internal one)
  --limit <n>               list: tenants per page, 1 to 100 (default 20)
  --starting-after <id>     list: the page after this tenant
  --overlap <seconds>       rotate: how long the replaced access token and secret key keep working, 0 to
                            ${MAX_OVERLAP_SECONDS} (default 86400, a day)

From the environment only, since a flag would show in ps and shell history:
  ${TOKEN_VARIABLE}       the sandbox's admin token (required); never printed

Exit codes: 0 success; 1 the sandbox answered with a problem (its detail on stderr: an unknown or revoked tenant, a
wrong admin token) or could not be reached; 2 usage error (a missing or unknown command, tenant id or flag, a bad
value, ${TOKEN_VARIABLE} not set).`;

function usageError(message: string): never {
  console.error(`${NAME}: ${message}\n${usage}`);
  process.exit(2);
}

/** Each command: the flags it takes besides --url, and whether a tenant id follows it. */
const COMMANDS = {
  create: { id: false, flags: { format: { type: 'string' }, 'public-url': { type: 'string' } } },
  list: { id: false, flags: { limit: { type: 'string' }, 'starting-after': { type: 'string' } } },
  show: { id: true, flags: {} },
  rotate: { id: true, flags: { overlap: { type: 'string' } } },
  revoke: { id: true, flags: {} },
} as const;
type CommandName = keyof typeof COMMANDS;

/** A whole number from `least` to `most` written in `text`, or a usage error naming the flag. */
function whole(flag: string, text: string, least: number, most: number): number {
  const n = Number(text);
  if (!(/^\d+$/.test(text.trim()) && Number.isInteger(n) && n >= least && n <= most))
    usageError(`${flag} must be a whole number from ${least} to ${most}, got "${text}"`);
  return n;
}

/** Runs `merchant-payments sandbox tenant` with `args`, the words after `tenant`; resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    if (command === undefined) usageError('a command is required; the commands are create, list, show, rotate, revoke');
    console.log(usage);
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, command))
    usageError(`unknown command "${command}"; the commands are create, list, show, rotate, revoke`);
  const spec = COMMANDS[command as CommandName];
  const takesId = spec.id && rest[0] !== undefined && !rest[0].startsWith('-');
  const id = takesId ? rest[0] : undefined;
  const flags = parseFlags({
    name: NAME,
    usage,
    args: takesId ? rest.slice(1) : rest,
    options: { url: { type: 'string' }, ...spec.flags },
  }) as Record<string, string | undefined>;
  if (spec.id && id === undefined)
    usageError(`${command} needs a tenant id: merchant-payments sandbox tenant ${command} <tenant id>`);

  const token = process.env[TOKEN_VARIABLE];
  if (!token) usageError(`${TOKEN_VARIABLE} must be set to the sandbox's admin token (it is never taken as a flag)`);
  const base = flags.url ?? (process.env[URL_VARIABLE] || DEFAULT_URL);
  const source = flags.url !== undefined ? '--url' : process.env[URL_VARIABLE] ? URL_VARIABLE : 'the default URL';
  if (!/^https?:$/.test(URL.canParse(base) ? new URL(base).protocol : ''))
    usageError(`${source} must be an absolute http:// or https:// URL, got "${base}"`);

  const format = flags.format ?? 'json';
  if (format !== 'json' && format !== 'onboarding')
    usageError(`--format must be "json" or "onboarding", got "${format}"`);
  if (flags['public-url'] !== undefined && format !== 'onboarding')
    usageError('--public-url goes with create --format onboarding');
  const publicUrl = flags['public-url'] ?? base;
  if (
    flags['public-url'] !== undefined &&
    !/^https?:$/.test(URL.canParse(publicUrl) ? new URL(publicUrl).protocol : '')
  )
    usageError(`--public-url must be an absolute http:// or https:// URL, got "${publicUrl}"`);

  const tenantPath = (suffix = '') => `/_admin/tenants/${encodeURIComponent(id!)}${suffix}`;
  let request: { method: string; path: string; body?: unknown };
  switch (command as CommandName) {
    case 'create':
      request = { method: 'POST', path: '/_admin/tenants' };
      break;
    case 'list': {
      const query = new URLSearchParams();
      if (flags.limit !== undefined) query.set('limit', String(whole('--limit', flags.limit, 1, 100)));
      if (flags['starting-after'] !== undefined) query.set('starting_after', flags['starting-after']);
      request = { method: 'GET', path: `/_admin/tenants${query.toString() ? `?${query}` : ''}` };
      break;
    }
    case 'show':
      request = { method: 'GET', path: tenantPath() };
      break;
    case 'rotate':
      request = {
        method: 'POST',
        path: tenantPath('/rotate'),
        body:
          flags.overlap === undefined
            ? undefined
            : { overlap_seconds: whole('--overlap', flags.overlap, 0, MAX_OVERLAP_SECONDS) },
      };
      break;
    case 'revoke':
      request = { method: 'DELETE', path: tenantPath() };
      break;
  }

  // Note: the settings are read before the tenant is issued, so that a failure leaves no credentials unprinted.
  const settings =
    format === 'onboarding' ? await ask(base, token, { method: 'GET', path: '/_admin/settings' }) : undefined;
  if (settings && !settings.ok) {
    console.error(`${NAME}: ${settings.message}`);
    return 1;
  }
  const answer = await ask(base, token, request);
  if (!answer.ok) {
    console.error(`${NAME}: ${answer.message}`);
    return 1;
  }
  const { data, has_more: hasMore } = (answer.body ?? {}) as { data?: unknown; has_more?: boolean };
  if (command === 'revoke') return 0;
  if (settings?.ok) {
    const { data: limits } = settings.body as Schemas['SandboxSettingsResponse'];
    console.log(onboarding(publicUrl, data as Schemas['TenantCredentials'], limits));
    return 0;
  }
  console.log(JSON.stringify(data));
  if (command === 'list' && hasMore) {
    const last = (data as { id: string }[]).at(-1)?.id;
    console.error(`${NAME}: more tenants follow: list --starting-after ${last}`);
  }
  return 0;
}

type Schemas = components['schemas'];

/** The text an operator sends a merchant with a new tenant: where, with what, and within which limits. */
function onboarding(
  publicUrl: string,
  tenant: Schemas['TenantCredentials'],
  settings: Schemas['SandboxSettings'],
): string {
  const base = publicUrl.replace(/\/+$/, '');
  const count = (n: number) => n.toLocaleString('en');
  const rule = settings.webhook_endpoints;
  const endpoints = rule.public_addresses_only
    ? `public addresses only: an endpoint on a loopback, private, link-local or metadata address is refused${rule.also_allowed.length > 0 ? `, but for ${rule.also_allowed.join(', ')}` : ''}`
    : 'any address';
  return [
    `Your sandbox tenant ${tenant.id}`,
    '',
    'Where:',
    `  Variant A (Authorization: Bearer <access token>, no path prefix): ${base}/payments, ${base}/payouts, …`,
    `  Variant B (X-Public-Key and X-Secret-Key headers):                ${base}/merchant/v1/payments, …`,
    `  The control API (the clock, webhook endpoints, faults, deliveries), with the same credentials: ${base}/_sandbox`,
    `  Test tenants, one per test file or CI job, each with credentials of its own: POST ${base}/_sandbox/tenants`,
    `  Webhooks on your laptop: npx merchant-payments webhook listen --from ${base} --forward-to http://127.0.0.1:3000/webhooks`,
    '',
    'Credentials (shown this once; keep them in your secret store):',
    `  access token (Variant A): ${tenant.access_token}`,
    `  public key (Variant B):   ${tenant.public_key}`,
    `  secret key (Variant B):   ${tenant.secret_key}`,
    '',
    'Limits:',
    `  requests: ${settings.rate_limit_per_second === null ? 'no rate limit' : `${count(settings.rate_limit_per_second)} a second per instance; past it, 429 with Retry-After`}`,
    `  objects: ${count(settings.max_objects)} payments, and as many payouts and appeals`,
    `  webhook endpoints: ${count(settings.max_webhook_endpoints)}`,
    `  events kept: ${count(settings.event_retention)}, the oldest dropped first`,
    `  test tenants: ${count(settings.test_tenants.max)} at once, each deleted once unused for ${count(settings.test_tenants.idle_seconds)} seconds`,
    `  webhook endpoints may point at: ${endpoints}`,
  ].join('\n');
}

/** What the sandbox answered: a 2xx and its JSON body, or a message that says what went wrong, never with the token. */
type Answer = { ok: true; body: unknown } | { ok: false; message: string };

async function ask(
  base: string,
  token: string,
  { method, path, body }: { method: string; path: string; body?: unknown },
): Promise<Answer> {
  const root = new URL(base);
  // Note: under the base's path, so that a sandbox behind a prefix (https://host/sandbox) is reached there.
  const prefix = root.pathname.replace(/\/$/, '');
  const url = new URL(`${prefix}${path}`, root.origin);
  // Note: the sandbox's address as the messages show it, without a user name, password or query.
  const shown = `${root.origin}${prefix}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      // Note: never followed, so that the admin token goes to no other address than the one given.
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const { name, cause } = error as { name?: string; cause?: { code?: string; message?: string } };
    if (name === 'TimeoutError')
      return { ok: false, message: `the sandbox at ${shown} did not answer within ${TIMEOUT_MS / 1000} s` };
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    return {
      ok: false,
      message: `cannot reach the sandbox at ${shown} (${why}); is it running, and is --url (or ${URL_VARIABLE}) its address?`,
    };
  }
  let text: string;
  try {
    text = new TextDecoder().decode(
      await readBounded(response, { maxBytes: MAX_ANSWER_BYTES, tooLarge: () => new Error('too large') }),
    );
  } catch {
    return {
      ok: false,
      message: `the sandbox at ${shown} answered ${response.status}, and its answer could not be read in full`,
    };
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (response.ok) return { ok: true, body: json };
  const problem = json as { detail?: unknown; code?: unknown } | undefined;
  if (typeof problem?.detail !== 'string') {
    const redirect = response.status >= 300 && response.status < 400 ? ' (a redirect, which is not followed)' : '';
    return {
      ok: false,
      message: `the sandbox at ${shown} answered ${response.status}${redirect}, not with the admin API's problem+json; is --url (or ${URL_VARIABLE}) a sandbox?`,
    };
  }
  // Note: an admin API that is off answers the 404 of a path no API has.
  const off = response.status === 404 && problem.detail.startsWith('No operation of either variant');
  const hint = off ? `; the sandbox at ${shown} serves no admin API: start it with ${TOKEN_VARIABLE} set` : '';
  return { ok: false, message: `${problem.detail} (${response.status} ${String(problem.code)})${hint}` };
}
