// The sandbox command's configuration as one table: each setting's flag, environment variable, default and meaning.
// The command parses its flags and variables from it, its --help lists it, and docs/hosting.md's table is checked
// against it, so that the three never differ. A flag wins over its variable.
import {
  DEFAULT_MAX_OBJECTS,
  DEFAULT_MAX_TENANTS,
  DEFAULT_TENANT_IDLE_SECONDS,
  DEFAULT_MAX_TEST_TENANTS,
  DEFAULT_TEST_TENANT_IDLE_SECONDS,
  DEFAULT_MERCHANT_QUEUE_LENGTH,
  DEFAULT_MERCHANT_QUEUE_MS,
  MAX_WEBHOOK_ENDPOINTS,
} from '../options.js';
import {
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
} from '../stores/connection-bounds.js';
import { EVENT_LOG_LIMIT } from '../core/index.js';

/** One setting of the command: a flag, and the variable that sets it when the flag is not given. */
export interface Setting {
  /** The flag's name without `--`. */
  flag: string;
  /** How the flag's value is written in the usage (`<n>`), empty for none. */
  value: string;
  /** The environment variable; several values are separated by commas. */
  variable: string;
  /** Whether the flag may be repeated (its variable then holds a comma-separated list). */
  multiple?: boolean;
  /** For a flag that takes no value (`--no-dashboard`): the value it stands for, which its variable may also hold. */
  sets?: string;
  short?: string;
  /** The default, as the docs say it. */
  default: string;
  /** What it does, in one or two sentences. */
  help: string;
}

/** Every flag of `merchant-payments sandbox`, in the order --help lists them. */
export const SETTINGS = [
  {
    flag: 'port',
    short: 'p',
    value: '<port>',
    variable: 'SANDBOX_PORT',
    default: '4020',
    help: 'TCP port to listen on; 0 picks a free one.',
  },
  {
    flag: 'host',
    value: '<host>',
    variable: 'SANDBOX_HOST',
    default: '127.0.0.1',
    help: 'Address to bind; 0.0.0.0 (or ::) serves every interface, as behind a load balancer.',
  },
  {
    flag: 'clock',
    value: 'real|manual',
    variable: 'SANDBOX_CLOCK',
    default: 'real',
    help: "real: objects move on after short delays; manual: nothing happens until a tenant's clock is advanced (POST /_sandbox/clock/advance).",
  },
  {
    flag: 'seed',
    value: '<seed>',
    variable: 'SANDBOX_SEED',
    default: 'sandbox',
    help: 'Seed of the ids, for reproducible runs.',
  },
  {
    flag: 'store',
    value: 'memory|postgres',
    variable: 'SANDBOX_STORE',
    default: 'memory',
    help: 'memory: tenants live in this process and are forgotten when it stops; postgres: in the PostgreSQL database named by DATABASE_URL (or the PG* variables), kept across restarts and shared by every instance on it (needs: npm install pg node-pg-migrate).',
  },
  {
    flag: 'auth',
    value: 'open|issued',
    variable: 'SANDBOX_AUTH',
    default: 'open',
    help: 'open: any credential is a tenant of its own (local use, CI); issued: only tenants provisioned through the admin API (/_admin, SANDBOX_ADMIN_TOKEN) get in, anything else gets 401.',
  },
  {
    flag: 'webhook-url',
    value: '<url>',
    variable: 'SANDBOX_WEBHOOK_URLS',
    multiple: true,
    default: 'none',
    help: "Send every tenant's status-change webhooks to <url> (repeat for several); tenants see that they have such an endpoint, never its URL. A URL with a user name or password is refused.",
  },
  {
    flag: 'allow-webhook-host',
    value: '<host>',
    variable: 'SANDBOX_ALLOW_WEBHOOK_HOSTS',
    multiple: true,
    default: 'none',
    help: "Let tenants' webhook endpoints reach <host> (a name, an IP address or a CIDR range such as 10.0.0.0/8) although the egress rule refuses it; repeat for several.",
  },
  {
    flag: 'log',
    value: 'json',
    variable: 'SANDBOX_LOG',
    default: 'off',
    help: 'Write one JSON line per request (pino: request id, method, path, operation, status, duration, tenant id; never a credential) to stderr; stdout keeps its start-up lines.',
  },
  {
    flag: 'when-orphaned',
    value: 'stay|exit',
    variable: 'SANDBOX_WHEN_ORPHANED',
    default: 'stay',
    help: 'What the sandbox does when whoever launched it (its parent shell, or the npm or npx above it) is gone: stay serves until a signal, as a server started by nohup, setsid or a service manager must; exit stops it. With -- <command> it always exits with the command.',
  },
  {
    flag: 'rate-limit',
    value: '<n>',
    variable: 'SANDBOX_RATE_LIMIT',
    default: 'unlimited',
    help: 'At most <n> requests per second per merchant (a tenant and its test tenants share one bucket) in this instance; past it a request of either variant or of the control API gets 429 rate_limited with Retry-After.',
  },
  {
    flag: 'merchant-concurrency',
    value: '<n>',
    variable: 'SANDBOX_MERCHANT_CONCURRENCY',
    default: 'a quarter of --pool-size, at least 1',
    help: "At most <n> requests of one merchant (a tenant and its test tenants) doing store work at once in this instance; the rest wait in the merchant's own queue.",
  },
  {
    flag: 'merchant-queue-ms',
    value: '<ms>',
    variable: 'SANDBOX_MERCHANT_QUEUE_MS',
    default: String(DEFAULT_MERCHANT_QUEUE_MS),
    help: "The longest a merchant's request waits in its queue; then 429 rate_limited with Retry-After.",
  },
  {
    flag: 'merchant-queue-length',
    value: '<n>',
    variable: 'SANDBOX_MERCHANT_QUEUE_LENGTH',
    default: String(DEFAULT_MERCHANT_QUEUE_LENGTH),
    help: 'At most <n> requests of one merchant waiting at once in this instance; one more gets 429 rate_limited at once.',
  },
  {
    flag: 'pool-size',
    value: '<n>',
    variable: 'SANDBOX_POOL_SIZE',
    default: String(DEFAULT_POOL_SIZE),
    help: "With --store postgres, the most connections this instance opens to the database (PostgreSQL's max_connections bounds all instances together).",
  },
  {
    flag: 'statement-timeout',
    value: '<ms>',
    variable: 'SANDBOX_STATEMENT_TIMEOUT',
    default: String(DEFAULT_STATEMENT_TIMEOUT_MS),
    help: "With --store postgres, PostgreSQL's statement_timeout on this instance's connections; a request whose statement it stops gets 500 internal_error, safe to retry.",
  },
  {
    flag: 'lock-timeout',
    value: '<ms>',
    variable: 'SANDBOX_LOCK_TIMEOUT',
    default: String(DEFAULT_LOCK_TIMEOUT_MS),
    help: "With --store postgres, PostgreSQL's lock_timeout on this instance's connections; a request whose statement it stops gets 429 rate_limited with Retry-After (the admin API, 500), safe to retry.",
  },
  {
    flag: 'max-objects',
    value: '<n>',
    variable: 'SANDBOX_MAX_OBJECTS',
    default: String(DEFAULT_MAX_OBJECTS),
    help: 'At most <n> payments, and as many payouts and appeals, per tenant; a create past it gets 422 quota_exceeded.',
  },
  {
    flag: 'max-webhook-endpoints',
    value: '<n>',
    variable: 'SANDBOX_MAX_WEBHOOK_ENDPOINTS',
    default: String(MAX_WEBHOOK_ENDPOINTS),
    help: `At most <n> webhook endpoints per tenant, from 1 to ${MAX_WEBHOOK_ENDPOINTS}; past it, 422 limit_reached.`,
  },
  {
    flag: 'event-retention',
    value: '<n>',
    variable: 'SANDBOX_EVENT_RETENTION',
    default: String(EVENT_LOG_LIMIT),
    help: "The events a new tenant's event log keeps; past it the oldest are dropped with their deliveries, and a redelivery of a dropped one gets 404 naming the retention.",
  },
  {
    flag: 'max-tenants',
    value: '<n>',
    variable: 'SANDBOX_MAX_TENANTS',
    default: String(DEFAULT_MAX_TENANTS),
    help: 'In open mode, at most <n> tenants in the store; a new credential past it gets 429 tenant_limit_reached (a control request, 401) with Retry-After until an idle tenant is forgotten.',
  },
  {
    flag: 'tenant-idle-timeout',
    value: '<seconds>',
    variable: 'SANDBOX_TENANT_IDLE_TIMEOUT',
    default: String(DEFAULT_TENANT_IDLE_SECONDS),
    help: 'In open mode, a tenant no request has used for this long is forgotten with all its state (looked for every tenth of it, at least once a minute).',
  },
  {
    flag: 'max-test-tenants',
    value: '<n>',
    variable: 'SANDBOX_MAX_TEST_TENANTS',
    default: String(DEFAULT_MAX_TEST_TENANTS),
    help: 'At most <n> test tenants per tenant (POST /_sandbox/tenants); past it, 422 limit_reached.',
  },
  {
    flag: 'test-tenant-ttl',
    value: '<seconds>',
    variable: 'SANDBOX_TEST_TENANT_TTL',
    default: String(DEFAULT_TEST_TENANT_IDLE_SECONDS),
    help: "A test tenant no request has used for this long is deleted with all its state; its parent's reset or revocation deletes it at once.",
  },
  {
    flag: 'no-dashboard',
    value: '',
    variable: 'SANDBOX_DASHBOARD',
    sets: 'off',
    default: 'on',
    help: 'Do not serve the dashboard at /_dashboard/, the page where a tenant signs in with its credentials and sees its payments, events and deliveries (SANDBOX_DASHBOARD=off does the same; on serves it).',
  },
] as const satisfies readonly Setting[];

/** What the command reads from the environment only, since a flag would show in ps and shell history. */
export const ENVIRONMENT_ONLY = [
  {
    variable: 'WEBHOOK_SECRET',
    default: 'generated, printed once',
    help: 'The whsec_ secret the --webhook-url deliveries are signed with.',
  },
  {
    variable: 'SANDBOX_ADMIN_TOKEN',
    default: 'none: no /_admin',
    help: 'The bearer token of the admin API (/_admin), which provisions tenants; without it the admin API does not exist. At least 32 characters.',
  },
  {
    variable: 'DATABASE_URL',
    default: 'the PG* variables',
    help: 'The PostgreSQL database of --store postgres; else PGHOST, PGPORT, PGDATABASE, PGUSER and PGPASSWORD, as `pg` reads them.',
  },
] as const;

export type SettingName = (typeof SETTINGS)[number]['flag'];

/** The raw values of every setting: the flag's, else the variable's (split on commas when multiple), else undefined. */
export type RawSettings = {
  [K in SettingName]: Extract<(typeof SETTINGS)[number], { flag: K }> extends { multiple: true }
    ? string[] | undefined
    : string | undefined;
};

/** parseArgs's option of one setting: a string, or a boolean for a flag that takes no value. */
type SettingOption = { type: 'string' | 'boolean'; multiple?: boolean; short?: string };

/** parseArgs's options for SETTINGS. */
export function settingOptions(): Record<SettingName, SettingOption> {
  return Object.fromEntries(
    SETTINGS.map((s) => [
      s.flag,
      {
        type: 'sets' in s ? ('boolean' as const) : ('string' as const),
        ...('multiple' in s ? { multiple: true } : {}),
        ...('short' in s ? { short: s.short } : {}),
      },
    ]),
  ) as Record<SettingName, SettingOption>;
}

/** Each setting's value and where it came from (`--flag` or the variable's name), for messages that name the source. */
export function readSettings(
  flags: Partial<Record<string, string | boolean | (string | boolean)[]>>,
  env: NodeJS.ProcessEnv,
): { values: RawSettings; source: Record<SettingName, string> } {
  const values: Record<string, string | string[] | undefined> = {};
  const source: Record<string, string> = {};
  for (const s of SETTINGS) {
    const given = flags[s.flag];
    const fromEnv = env[s.variable];
    if (given !== undefined && typeof given !== 'boolean') {
      // Note: parseArgs gives a string option strings only; the boolean in its type is a value-less flag's.
      values[s.flag] = given as string | string[];
      source[s.flag] = `--${s.flag}`;
    } else if (given === true && 'sets' in s) {
      values[s.flag] = s.sets;
      source[s.flag] = `--${s.flag}`;
    } else if (fromEnv !== undefined && fromEnv !== '') {
      values[s.flag] =
        'multiple' in s
          ? fromEnv
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean)
          : fromEnv;
      source[s.flag] = s.variable;
    } else {
      source[s.flag] = `--${s.flag}`;
    }
  }
  return { values: values as RawSettings, source };
}

/** The options part of --help, from SETTINGS: the flag, its value, and what it does with its variable and default. */
export function settingsUsage(width = 110): string {
  const lines: string[] = [];
  for (const s of SETTINGS) {
    const head = `  --${s.flag}${s.value ? ` ${s.value}` : ''}`;
    const text = `${s.help} (default ${s.default}; or ${s.variable})`;
    lines.push(...wrap(head.padEnd(28), text, width));
  }
  return lines.join('\n');
}

/** The environment-only part of --help, from ENVIRONMENT_ONLY. */
export function environmentUsage(width = 110): string {
  return ENVIRONMENT_ONLY.flatMap((e) =>
    wrap(`  ${e.variable}`.padEnd(28), `${e.help} (default ${e.default})`, width),
  ).join('\n');
}

function wrap(head: string, text: string, width: number): string[] {
  const indent = ' '.repeat(28);
  const lines: string[] = [];
  let line = head.length > 28 ? (lines.push(head), indent) : head;
  for (const word of text.split(' ')) {
    if (line.length + word.length + 1 > width && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += (line === indent || line === head ? '' : ' ') + word;
  }
  lines.push(line.trimEnd());
  return lines;
}
