// merchant-payments mock (alias merchant-payments-mock): serves the bundled spec of one variant, or of both at once,
// as shipped in this package, with the Prism mock, or, with --upstream, checks a real server against it through
// Prism's validating proxy. The dispatcher and bin/merchant-payments-mock.mjs call main; tests run this file with tsx.
//   merchant-payments mock --variant a|b|a,b [--port <port>] [--host <host>] [--upstream <url> [--responses-only]] [--verbose] [-- <command> [args...]]
// With a command after `--`, the mock runs only while the command does, and the exit code is the command's; Prism's own
// log (a [VALIDATOR] line for every request that breaks the contract) is then kept quiet unless --verbose asks for it.
import { fileURLToPath } from 'node:url';
import { isEntry, runCommand } from '@merchant-payments/contract/internal/shared/entry.js';
import { parseCommandLine } from '@merchant-payments/contract/internal/shared/parse-flags.js';
import { supervise } from '@merchant-payments/contract/internal/shared/supervise.js';
import { prismEntry, startPrism, type PrismServer } from './prism.js';

type Variant = 'a' | 'b';
const NAME = 'merchant-payments mock';
const ALIAS = 'merchant-payments-mock';
const DEFAULT_PORTS = { a: 4010, b: 4011 };
const PRISM_VERSION = '5.14.2';
/** The variable that tells the command where the mock of the one variant served listens. */
const URL_VARIABLE = 'MERCHANT_PAYMENTS_MOCK_URL';
/** The variables that tell the command where each mock listens when both variants are served. */
const URL_VARIABLES = { a: `${URL_VARIABLE}_A`, b: `${URL_VARIABLE}_B` } as const;
const usage = `usage: merchant-payments mock --variant a|b|a,b [--port <port>] [--host <host>] [--upstream <url> [--responses-only]]
                              [--verbose] [-- <command> [args...]]
   or: ${ALIAS} (the same flags)

Serves Variant A or Variant B of the merchant payments contract, or both at once, with Prism, from the bundled spec
in this package. Requests are validated against the contract (422 on a violation, 401 without credentials).

  --variant a|b|a,b  which layout to serve (required); a,b (or both) serves both, each with a Prism of its own
  --port <port>      TCP port (default 4010 for a, 4011 for b); with both variants, Variant A's port, and
                     Variant B listens on the next one (default 4010 and 4011)
  --host <host>      address to bind (default 127.0.0.1)
  --upstream <url>   check a real server instead of mocking (one variant only): forward every request to <url>
                     and answer 500 (application/problem+json, the violations in "validation" and the
                     sl-violations header) whenever the request or the server's response breaks the contract
  --responses-only   with --upstream: pass every request on unchecked and check only the server's responses,
                     so that its own answers to bad requests (400, 422) are checked too
  --verbose          with -- <command>, print Prism's log too (a [VALIDATOR] line for each request or response
                     that breaks the contract, on stderr), which is otherwise left out so that the command's
                     own output reads clearly; without a command it is always printed
  -- <command>       run <command> once the mock listens, in a process group of its own, with ${URL_VARIABLE}
                     set (with both variants, ${URL_VARIABLES.a} and ${URL_VARIABLES.b} instead); when
                     it exits, stop whatever it left running and the mock, and exit with its code. SIGINT,
                     SIGTERM and SIGHUP are passed on to the command's group.

Each URL is the server's root, such as http://127.0.0.1:4011, and never includes /merchant/v1: the Variant B
client adds that prefix itself.

Exit codes: 0 stopped by SIGINT, SIGTERM or SIGHUP (without a command); with a command, the command's code
(128 + n when a signal n ended it, 127 when it could not be started); 1 Prism could not start, stopped
unexpectedly, or the process that launched the mock is gone; 2 usage error.

Needs @stoplight/prism-cli next to this package: npm install --save-dev @stoplight/prism-cli@${PRISM_VERSION}`;

function fail(message: string, code = 2): never {
  console.error(`${NAME}: ${message}`);
  process.exit(code);
}

/** The variants `--variant` names: one, or both as `a,b`, `b,a` or `both`; undefined when it names anything else. */
function variantsOf(value: string | undefined): Variant[] | undefined {
  const words =
    value?.toLowerCase() === 'both'
      ? ['a', 'b']
      : value
          ?.toLowerCase()
          .split(',')
          .map((word) => word.trim());
  if (!words || words.some((word) => word !== 'a' && word !== 'b') || new Set(words).size !== words.length)
    return undefined;
  return (words as Variant[]).sort();
}

/** The upstream as an absolute http(s) URL, or a clear failure. */
function upstreamUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`--upstream must be an absolute http(s) URL such as https://payments.internal, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`--upstream must use http or https, got "${value}"`);
  return url.href.replace(/\/$/, '');
}

/** The bundled spec of `variant`, found through this package's own exports, in the sources as once installed. */
function bundledSpec(name: Variant): string {
  const entry = `@merchant-payments/contract/openapi/variant-${name}.yaml`;
  try {
    return fileURLToPath(import.meta.resolve(entry));
  } catch {
    return fail(`the bundled spec ${entry} is missing from this installation; reinstall the package`, 1);
  }
}

/** Runs the mock with `args`, the words after the command's name; it serves until stopped, then exits the process. */
export async function main(args: string[]): Promise<void> {
  const { flags, command } = parseCommandLine({
    name: NAME,
    usage,
    args,
    options: {
      variant: { type: 'string', short: 'v' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      upstream: { type: 'string', short: 'u' },
      'responses-only': { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
  });
  const variants = variantsOf(flags.variant);
  if (!variants)
    fail(`--variant must be "a", "b" or "a,b"${flags.variant ? `, got "${flags.variant}"` : ''}\n${usage}`);
  const both = variants.length === 2;
  const port = Number(flags.port ?? DEFAULT_PORTS[variants[0]!]);
  if (!Number.isInteger(port) || port < 1 || port > 65535 - (both ? 1 : 0)) {
    fail(
      `--port must be a TCP port from 1 to ${both ? '65534 (Variant B takes the next one)' : '65535'}, got "${flags.port}"`,
    );
  }
  const host = flags.host ?? '127.0.0.1';
  if (flags.upstream !== undefined && both)
    fail(`--upstream checks one server, which implements one variant: pass --variant a or b\n${usage}`);
  const upstream = flags.upstream === undefined ? undefined : upstreamUrl(flags.upstream);
  if (flags['responses-only'] && upstream === undefined)
    fail(`--responses-only checks a server's responses, so it needs --upstream\n${usage}`);

  const specs = variants.map(bundledSpec);
  try {
    prismEntry();
  } catch {
    fail(
      'Prism is not installed. It is an optional peer dependency of this package, needed only for the mock:\n' +
        `  npm install --save-dev @stoplight/prism-cli@${PRISM_VERSION}`,
      1,
    );
  }

  // Note: Prism announces its start on every launch; the ready line below says it better. Beside a command its log is
  // kept (Prism's output(), shown when it stops unexpectedly) but not printed unless asked for, since a test run's
  // requests that break the contract on purpose would bury the command's own output under [VALIDATOR] lines.
  const quiet = command.length > 0 && !flags.verbose;
  const echo = (line: string) => quiet || /Starting Prism/.test(line) || process.stderr.write(`[prism] ${line}\n`);
  const launched = await Promise.allSettled(
    specs.map((spec, index) =>
      startPrism({ spec, port: port + index, host, echo, upstream, validateRequest: !flags['responses-only'] }),
    ),
  );
  const servers = launched.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const refused = launched.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  const stopAll = async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
  if (refused) {
    // Note: with both variants one Prism may be up while the other failed; it is stopped by pid before exiting.
    await stopAll();
    fail((refused.reason as Error).message, 1);
  }
  const role = upstream === undefined ? '' : ` (checking ${upstream} against the contract)`;
  servers.forEach((server: PrismServer, index) => {
    console.log(`${NAME}: Variant ${variants[index]!.toUpperCase()} listening on ${server.url}${role}`);
  });
  const urls = both
    ? Object.fromEntries(servers.map((server, index) => [URL_VARIABLES[variants[index]!], server.url]))
    : { [URL_VARIABLE]: servers[0]!.url };

  const { stop, stopping } = supervise({ name: NAME, command, env: { ...process.env, ...urls }, close: stopAll });
  for (const server of servers) {
    void server.exited.then((code) => {
      if (!stopping())
        console.error(
          `${NAME}: Prism exited unexpectedly (${code})${quiet ? `; its last lines:\n${server.output()}` : ''}`,
        );
      void stop(1);
    });
  }
}

if (isEntry(import.meta.url)) await runCommand(main);
