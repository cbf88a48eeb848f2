#!/usr/bin/env node
// merchant-payments-mock: serves the bundled spec of one variant, as shipped in this package, with the Prism mock,
// or, with --upstream, checks a real server against it through Prism's validating proxy.
//   merchant-payments-mock --variant a|b [--port <port>] [--host <host>] [--upstream <url>] [-- <command> [args...]]
// With a command after `--`, the mock runs only while the command does, and the exit code is the command's.
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnInGroup, watchParent } from '../scripts/lib/child.mjs';
import { parseFlags } from '../scripts/lib/cli.mjs';
import { prismEntry, startPrism } from '../scripts/lib/prism.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_PORTS = { a: 4010, b: 4011 };
const PRISM_VERSION = '5.14.2';
/** The variable that tells the command where the mock listens. */
const URL_VARIABLE = 'MERCHANT_PAYMENTS_MOCK_URL';
const usage = `usage: merchant-payments-mock --variant a|b [--port <port>] [--host <host>] [--upstream <url>] [-- <command> [args...]]

Serves Variant A or Variant B of the merchant payments contract with Prism, from the bundled spec in
this package. Requests are validated against the contract (422 on a violation, 401 without credentials).

  --variant a|b     which layout to serve (required)
  --port <port>     TCP port (default 4010 for a, 4011 for b)
  --host <host>     address to bind (default 127.0.0.1)
  --upstream <url>  check a real server instead of mocking: forward every request to <url> and answer 500
                    (application/problem+json, the violations in "validation" and the sl-violations header)
                    whenever the request or the server's response breaks the contract
  -- <command>      run <command> once the mock listens, with ${URL_VARIABLE} set, in a process group of its
                    own; when it exits, stop whatever it left running and the mock, and exit with its code.
                    SIGINT, SIGTERM and SIGHUP are passed on to the command's group.

Exit codes: 0 stopped by SIGINT, SIGTERM or SIGHUP (without a command); with a command, the command's code
(128 + n when a signal n ended it, 127 when it could not be started); 1 Prism could not start, stopped
unexpectedly, or the process that launched the mock is gone; 2 usage error.

Needs @stoplight/prism-cli next to this package: npm install --save-dev @stoplight/prism-cli@${PRISM_VERSION}`;

function fail(message, code = 2) {
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
  },
});
const variant = flags.variant?.toLowerCase();
if (variant !== 'a' && variant !== 'b') fail(`--variant must be "a" or "b"${flags.variant ? `, got "${flags.variant}"` : ''}\n${usage}`);
if (dashes !== -1 && command.length === 0) fail(`a command must follow --\n${usage}`);
const port = Number(flags.port ?? DEFAULT_PORTS[variant]);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a TCP port from 1 to 65535, got "${flags.port}"`);
const host = flags.host ?? '127.0.0.1';
const upstream = flags.upstream === undefined ? undefined : upstreamUrl(flags.upstream);

/** The upstream as an absolute http(s) URL, or a clear failure. */
function upstreamUrl(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    fail(`--upstream must be an absolute http(s) URL such as https://payments.internal, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`--upstream must use http or https, got "${value}"`);
  return url.href.replace(/\/$/, '');
}

const spec = path.join(here, '..', 'generated', 'openapi', `variant-${variant}.yaml`);
if (!existsSync(spec)) fail(`the bundled spec ${spec} is missing from this installation; reinstall the package`, 1);
try {
  prismEntry();
} catch {
  fail(
    'Prism is not installed. It is an optional peer dependency of this package, needed only for the mock:\n' +
      `  npm install --save-dev @stoplight/prism-cli@${PRISM_VERSION}`,
    1,
  );
}

let server;
try {
  // Note: Prism announces its start on every launch; the ready line below says it better.
  const echo = (line) => /Starting Prism/.test(line) || process.stderr.write(`[prism] ${line}\n`);
  server = await startPrism({ spec, port, host, echo, upstream });
} catch (error) {
  fail(error.message, 1);
}
const role = upstream === undefined ? '' : ` (checking ${upstream} against the contract)`;
console.log(`merchant-payments-mock: Variant ${variant.toUpperCase()} listening on ${server.url}${role}`);

let stopping = false;
let child;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await server.stop();
  process.exit(code);
}
server.exited.then((code) => {
  if (!stopping) console.error(`merchant-payments-mock: Prism exited unexpectedly (${code})`);
  stop(1);
});
// Note: run through npx or an npm script, a SIGKILLed npm leaves this process running; stop when the launcher is gone.
watchParent(() => stop(1));

if (command.length === 0) {
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(name, () => stop(0));
} else {
  // Note: the command and anything it starts form one process group, which goes down when the command exits or this
  // process dies, even by SIGKILL; a signal to this process is passed on, and the mock stops once the group is gone.
  child = spawnInGroup('merchant-payments-mock', command[0], command.slice(1), { env: { ...process.env, [URL_VARIABLE]: server.url } });
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, () => child.kill(name));
  child.once('exit', (code, sig) => stop(code ?? 128 + (constants.signals[sig] ?? 0)));
}
