// merchant-payments-mock: serves the bundled spec of one variant, as shipped in this package, with the Prism mock,
// or, with --upstream, checks a real server against it through Prism's validating proxy. bin/merchant-payments-mock.mjs
// runs the compiled file; tests run this one with tsx.
//   merchant-payments-mock --variant a|b [--port <port>] [--host <host>] [--upstream <url> [--responses-only]] [-- <command> [args...]]
// With a command after `--`, the mock runs only while the command does, and the exit code is the command's.
import { fileURLToPath } from 'node:url';
import { parseFlags } from '../cli/parse-flags.js';
import { supervise } from '../cli/supervise.js';
import { prismEntry, startPrism, type PrismServer } from './prism.js';

const DEFAULT_PORTS = { a: 4010, b: 4011 };
const PRISM_VERSION = '5.14.2';
/** The variable that tells the command where the mock listens. */
const URL_VARIABLE = 'MERCHANT_PAYMENTS_MOCK_URL';
const usage = `usage: merchant-payments-mock --variant a|b [--port <port>] [--host <host>] [--upstream <url> [--responses-only]] [-- <command> [args...]]

Serves Variant A or Variant B of the merchant payments contract with Prism, from the bundled spec in
this package. Requests are validated against the contract (422 on a violation, 401 without credentials).

  --variant a|b     which layout to serve (required)
  --port <port>     TCP port (default 4010 for a, 4011 for b)
  --host <host>     address to bind (default 127.0.0.1)
  --upstream <url>  check a real server instead of mocking: forward every request to <url> and answer 500
                    (application/problem+json, the violations in "validation" and the sl-violations header)
                    whenever the request or the server's response breaks the contract
  --responses-only  with --upstream: pass every request on unchecked and check only the server's responses,
                    so that its own answers to bad requests (400, 422) are checked too
  -- <command>      run <command> once the mock listens, with ${URL_VARIABLE} set, in a process group of its
                    own; when it exits, stop whatever it left running and the mock, and exit with its code.
                    SIGINT, SIGTERM and SIGHUP are passed on to the command's group.

Exit codes: 0 stopped by SIGINT, SIGTERM or SIGHUP (without a command); with a command, the command's code
(128 + n when a signal n ended it, 127 when it could not be started); 1 Prism could not start, stopped
unexpectedly, or the process that launched the mock is gone; 2 usage error.

Needs @stoplight/prism-cli next to this package: npm install --save-dev @stoplight/prism-cli@${PRISM_VERSION}`;

function fail(message: string, code = 2): never {
  console.error(`merchant-payments-mock: ${message}`);
  process.exit(code);
}

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const command = dashes === -1 ? [] : argv.slice(dashes + 1);
const flags = parseFlags({
  name: 'merchant-payments-mock',
  usage,
  args: dashes === -1 ? argv : argv.slice(0, dashes),
  options: {
    variant: { type: 'string', short: 'v' },
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    upstream: { type: 'string', short: 'u' },
    'responses-only': { type: 'boolean' },
  },
});
const variant = flags.variant?.toLowerCase();
if (variant !== 'a' && variant !== 'b') fail(`--variant must be "a" or "b"${flags.variant ? `, got "${flags.variant}"` : ''}\n${usage}`);
if (dashes !== -1 && command.length === 0) fail(`a command must follow --\n${usage}`);
const port = Number(flags.port ?? DEFAULT_PORTS[variant]);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a TCP port from 1 to 65535, got "${flags.port}"`);
const host = flags.host ?? '127.0.0.1';
const upstream = flags.upstream === undefined ? undefined : upstreamUrl(flags.upstream);
if (flags['responses-only'] && upstream === undefined) fail(`--responses-only checks a server's responses, so it needs --upstream\n${usage}`);

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

const spec = bundledSpec(variant);
try {
  prismEntry();
} catch {
  fail(
    'Prism is not installed. It is an optional peer dependency of this package, needed only for the mock:\n' +
      `  npm install --save-dev @stoplight/prism-cli@${PRISM_VERSION}`,
    1,
  );
}

/** The bundled spec of `variant`, found through this package's own exports, in the sources as once installed. */
function bundledSpec(name: 'a' | 'b'): string {
  const entry = `@merchant-payments/contract/openapi/variant-${name}.yaml`;
  try {
    return fileURLToPath(import.meta.resolve(entry));
  } catch {
    return fail(`the bundled spec ${entry} is missing from this installation; reinstall the package`, 1);
  }
}

let server: PrismServer;
try {
  // Note: Prism announces its start on every launch; the ready line below says it better.
  const echo = (line: string) => /Starting Prism/.test(line) || process.stderr.write(`[prism] ${line}\n`);
  server = await startPrism({ spec, port, host, echo, upstream, validateRequest: !flags['responses-only'] });
} catch (error) {
  fail((error as Error).message, 1);
}
const role = upstream === undefined ? '' : ` (checking ${upstream} against the contract)`;
console.log(`merchant-payments-mock: Variant ${variant.toUpperCase()} listening on ${server.url}${role}`);

const { stop, stopping } = supervise({
  name: 'merchant-payments-mock',
  command,
  env: { ...process.env, [URL_VARIABLE]: server.url },
  close: () => server.stop(),
});
server.exited.then((code) => {
  if (!stopping()) console.error(`merchant-payments-mock: Prism exited unexpectedly (${code})`);
  stop(1);
});
