// merchant-payments conformance (alias merchant-payments-conformance): runConformance as a command. The dispatcher and
// bin/merchant-payments-conformance.mjs call main; tests run this file with tsx. Credentials come from the environment only, so they stay out of shell history.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isEntry, runCommand } from '@merchant-payments/contract/internal/shared/entry.js';
import { parseFlags } from '@merchant-payments/contract/internal/shared/parse-flags.js';
import { ENV } from './http.js';
import { formatText, toJson, toJunit } from './report.js';
import { ConformanceUsageError, runConformance } from './run.js';
import { STAGES, type ConformanceReport, type Progress } from './types.js';
import { WEBHOOK_SECRET_ENV } from './webhooks.js';

const NAME = 'merchant-payments conformance';
const ALIAS = 'merchant-payments-conformance';
const FORMATS = { json: toJson, junit: toJunit } as const;
const usage = `usage: merchant-payments conformance --variant a|b --base-url <url> [--only <stage>[,<stage>...]] [--seed <n>]
                                     [--requests <n>] [--sandbox | --stateless] [--webhook-port <port>] [--webhook-wait <s>]
                                     [--deadline <s>] [--report json|junit <file>]...
   or: ${ALIAS} (the same flags)

Checks a running server of one variant against the contract and prints a report: each failed check with the rule it
enforces, the request, the response and a curl line that repeats it (credentials shown as the variables' names).

  --variant a|b            which variant the server implements
  --base-url <url>         the server's root, such as https://staging.example (paths such as /merchant/v1/... are appended,
                           so a Variant B URL must not end in /merchant/v1); redirects are followed only within its origin
  --only <stages>          run only these stages, comma-separated or repeated; the stages are: ${STAGES.join(', ')}
                             flows: the shipped Arazzo workflows run by Redocly Respect, one check per step
                             (Respect comes with @redocly/cli, an optional peer dependency; without it the stage is
                             skipped, saying how to install it)
                             fuzz: requests generated from the contract's schemas, half valid and half broken in one
                             place, plus one without credentials per operation
                             invariants: sequences of commands (create, retrieve, cancel, confirm, refund, replay)
                             drawn by fast-check over the contract's lifecycle tables and checked against that model,
                             the lists and the balance after each; a failing sequence is shrunk; with --sandbox every
                             transition of the tables
                             webhooks: listens for the server's deliveries for the whole run; checks each one's
                             signature, body and headers, that a retry keeps its X-Event-ID (the kit answers 503 to
                             the first delivery of two events), and that every status change the API showed was sent
  --seed <n>               seed of the generated requests and command sequences; the same seed sends the same
                           requests (default 1)
  --requests <n>           generated requests per operation in the fuzz stage, and the invariants stage's budget: n
                           per operation, and as many again to shrink failing sequences; 1 to 10000 (default 20)
  --sandbox                the server is our sandbox: through /_sandbox the kit moves the clock, forces outcomes and
                           registers its webhook endpoint, so that every transition, retries and the server's own
                           processing happen during the run; it runs in a test tenant of its own, deleted after (where
                           the credentials may not make one, in theirs, judging only the objects it made)
  --stateless              judge only what a server that keeps no state can pass, such as the contract mock
                           (merchant-payments mock) or a stub: the webhooks stage, the checks that follow an object from
                           one request to the next and the workflows that need state are left out, each listed in the
                           report with why; the checks of single answers still fail on an answer that breaks the
                           contract. Not with --sandbox. Against the mock:
                             merchant-payments mock --variant b -- sh -c 'merchant-payments conformance --variant b
                               --base-url "$MERCHANT_PAYMENTS_MOCK_URL" --stateless'
  --webhook-port <port>    the port on 127.0.0.1 the webhooks stage listens on; 0 takes a free one (default 4030)
  --webhook-wait <s>       how long to wait for the event of a status change, in seconds (default 10)
  --deadline <s>           the whole run's deadline, in seconds (default 900): a stage still running then stops and the
                           stages after it do not run; a stage also stops when 3 requests in a row get no answer
  --report json|junit <f>  also write the report to file <f> as JSON or JUnit XML (repeat for both)

Credentials, from the environment only:
  Variant A  ${ENV.accessToken}
  Variant B  ${ENV.publicKey} and ${ENV.secretKey}
  Webhooks   ${WEBHOOK_SECRET_ENV} (the endpoint's whsec_ signing secret; with --sandbox and none set, the endpoint
             the kit registers gets its own)

Exit codes: 0 every check passed; 1 a check failed (a server that does not answer, a stage stopped by the deadline and
a body over 8 MiB fail too), or a report file
could not be written; 2 usage error (an unknown or malformed flag, an unknown stage, missing credentials, no webhook
secret, a webhook port that is taken, --stateless with --sandbox).`;

function fail(message: string, code = 2): never {
  console.error(`${NAME}: ${message}`);
  process.exit(code);
}

/** `--report json FILE` is two words after the flag; parseArgs takes one, so the pair is joined as `json=FILE` first. */
function joinReportPairs(args: string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const word = args[index] as string;
    const format = args[index + 1];
    const file = args[index + 2];
    if (
      word === '--report' &&
      format !== undefined &&
      !format.startsWith('-') &&
      !format.includes('=') &&
      file !== undefined &&
      !file.startsWith('-')
    ) {
      joined.push(`--report=${format}=${file}`);
      index += 2;
    } else joined.push(word);
  }
  return joined;
}

const integer = (flag: string, text: string | undefined, fallback: number) => {
  if (text === undefined) return fallback;
  if (!/^-?\d+$/.test(text)) fail(`--${flag} must be an integer, got "${text}"\n${usage}`);
  return Number(text);
};

/** `--webhook-wait` or `--deadline` in seconds (decimals allowed), as milliseconds. */
const seconds = (flag: string, text: string | undefined) => {
  if (text === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(text)) fail(`--${flag} takes seconds, such as 10 or 2.5, got "${text}"\n${usage}`);
  return Math.round(Number(text) * 1000);
};

/** Runs the kit with `args`, the words after the command's name; resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags({
    name: NAME,
    usage,
    args: joinReportPairs(args),
    options: {
      variant: { type: 'string' },
      'base-url': { type: 'string' },
      only: { type: 'string', multiple: true },
      seed: { type: 'string' },
      requests: { type: 'string' },
      report: { type: 'string', multiple: true },
      sandbox: { type: 'boolean' },
      stateless: { type: 'boolean' },
      'webhook-port': { type: 'string' },
      'webhook-wait': { type: 'string' },
      deadline: { type: 'string' },
    },
  });
  if (flags.variant !== 'a' && flags.variant !== 'b')
    fail(`--variant must be "a" or "b"${flags.variant === undefined ? '' : `, got "${flags.variant}"`}\n${usage}`);
  if (flags['base-url'] === undefined) fail(`--base-url is required\n${usage}`);
  if (flags.stateless && flags.sandbox)
    fail(
      `--stateless and --sandbox cannot go together: --sandbox says the server is the sandbox, which keeps state, and judges all of it; --stateless judges only what a server without state can pass\n${usage}`,
    );
  const reports = (flags.report ?? []).map((value) => {
    const [format, ...rest] = value.split('=');
    const file = rest.join('=');
    if (!format || !(format in FORMATS) || file === '')
      fail(`--report takes json or junit and a file, such as --report junit conformance.xml; got "${value}"`);
    return { format: format as keyof typeof FORMATS, file };
  });

  let progressShown = false;
  const showProgress = ({ stage, operation, sent, failed }: Progress) => {
    progressShown = true;
    process.stderr.write(`\r\u001b[2K${NAME}: ${stage} · ${operation} · ${sent} requests · ${failed} failing`);
  };

  let report: ConformanceReport;
  try {
    report = await runConformance({
      variant: flags.variant,
      baseUrl: flags['base-url'],
      only: flags.only?.flatMap((names) => names.split(',').map((name) => name.trim())),
      seed: integer('seed', flags.seed, 1),
      requests: integer('requests', flags.requests, 20),
      sandbox: flags.sandbox ?? false,
      stateless: flags.stateless ?? false,
      webhookPort: flags['webhook-port'] === undefined ? undefined : integer('webhook-port', flags['webhook-port'], 0),
      webhookWaitMs: seconds('webhook-wait', flags['webhook-wait']),
      deadlineMs: seconds('deadline', flags.deadline),
      onProgress: process.stderr.isTTY ? showProgress : undefined,
    });
  } catch (error) {
    if (error instanceof ConformanceUsageError) fail(error.message);
    throw error;
  }
  if (progressShown) process.stderr.write('\r\u001b[2K');
  console.log(formatText(report));
  for (const { format, file } of reports) {
    try {
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
      writeFileSync(file, FORMATS[format](report));
    } catch (error) {
      fail(`could not write the ${format} report to ${file}: ${(error as Error).message}`, 1);
    }
  }
  return report.passed ? 0 : 1;
}

if (isEntry(import.meta.url)) await runCommand(main);
