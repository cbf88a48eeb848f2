// `npm start`: serves both bundled specs through the Prism mock, the stateful sandbox and the docs site, until Ctrl-C,
// SIGTERM or SIGHUP.
// Flags, ports and exit codes: `npm start -- --help`. Runs with `node --import tsx`: the mock's code is the package's, in src/.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFlags } from '../packages/contract/src/shared/parse-flags.ts';
import { collectOutput, spawnTiedNode } from '../packages/contract/src/shared/children.ts';
import { assertPortFree } from '../packages/cli/src/mock/ports.ts';
import { startPrism } from '../packages/cli/src/mock/prism.ts';
import { watchParent } from '../packages/contract/src/shared/watch-parent.ts';
import { createSandbox } from '../packages/sandbox/src/index.ts';
import { generateWebhookSecret } from '../packages/sandbox/src/options.ts';
import { dashboardBuildArgs, dashboardBuildEnv } from './lib/dashboard.mjs';
import { startStaticServer } from './lib/static-server.mjs';
import { binPath } from './lib/tools.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const usage = `usage: npm start -- [--port-a <port>] [--port-b <port>] [--port-docs <port>] [--port-sandbox <port>] [--host <host>]
                    [--webhook-url <url>]...

Serves Variant A and Variant B with the Prism mock, the stateful sandbox of both variants (real clock), and the docs
site, until Ctrl-C, SIGTERM or SIGHUP.
  --port-a, --port-b, --port-docs   ports (or MOCK_PORT_A, MOCK_PORT_B, DOCS_PORT; default 4010, 4011, 4012)
  --port-sandbox <port>             the sandbox's port (or SANDBOX_PORT; default 4020)
  --host <host>                     address to bind (or MOCK_HOST; default 127.0.0.1)
  --webhook-url <url>               where the sandbox sends every tenant's webhooks (repeatable), signed with
                                    WEBHOOK_SECRET, or with a secret generated and printed at start

Exit codes: 0 stopped by a signal, or because npm (or whatever started it) is gone; 1 a bad flag, a port in use, or a
server that failed to start or stopped.`;
const flags = parseFlags({
  name: 'npm start',
  usage,
  code: 1,
  options: {
    'port-a': { type: 'string' },
    'port-b': { type: 'string' },
    'port-docs': { type: 'string' },
    'port-sandbox': { type: 'string' },
    host: { type: 'string' },
    'webhook-url': { type: 'string', multiple: true },
  },
});
const host = flags.host ?? process.env.MOCK_HOST ?? '127.0.0.1';
const webhookUrls = flags['webhook-url'] ?? [];
const webhookSecret = process.env.WEBHOOK_SECRET ?? generateWebhookSecret();
/** Where this start builds the docs site, made when the docs server starts; removed when it stops. */
let siteDir;
/** Where this start builds the sandbox's dashboard, made when the sandbox starts; removed when it stops. */
let dashboardDir;

// One entry per server; each needs a name, a port, the files it serves and a way to start it.
const servers = [
  {
    name: 'variant-a',
    port: portOf(flags['port-a'] ?? process.env.MOCK_PORT_A ?? '4010', 'port-a'),
    files: ['packages/contract/generated/openapi/variant-a.yaml'],
    start: (s) => startPrism({ spec: path.join(root, s.files[0]), port: s.port, host, echo: prefixed(s.name) }),
    hint: (url) => `curl -H 'Authorization: Bearer test-token' ${url}/payments`,
  },
  {
    name: 'variant-b',
    port: portOf(flags['port-b'] ?? process.env.MOCK_PORT_B ?? '4011', 'port-b'),
    files: ['packages/contract/generated/openapi/variant-b.yaml'],
    start: (s) => startPrism({ spec: path.join(root, s.files[0]), port: s.port, host, echo: prefixed(s.name) }),
    hint: (url) => `curl -H 'X-Public-Key: pk_test' -H 'X-Secret-Key: sk_test' ${url}/merchant/v1/payments`,
  },
  {
    name: 'sandbox',
    port: portOf(flags['port-sandbox'] ?? process.env.SANDBOX_PORT ?? '4020', 'port-sandbox'),
    files: [],
    // Note: in this process, so it goes down with it however it ends; its secret is printed only when generated. Its
    // dashboard is built afresh, in a child while Prism starts, into a folder of this start's own, as the docs are.
    start: async (s) => {
      await assertPortFree(s.port, host);
      dashboardDir = mkdtempSync(path.join(os.tmpdir(), 'merchant-payments-dashboard-'));
      await runInChild(
        'the dashboard build',
        binPath('vite', 'vite'),
        dashboardBuildArgs(dashboardDir),
        dashboardBuildEnv,
      );
      const sandbox = createSandbox({ clock: 'real', webhookSecret, webhookUrls, dashboard: { assets: dashboardDir } });
      const { url } = await sandbox.listen({ port: s.port, host });
      return { url, stop: () => sandbox.close() };
    },
    hint: (url) => [
      `curl -H 'Authorization: Bearer test-token' -H 'Idempotency-Key: try-1' -H 'Content-Type: application/json' -d '{"amount":"42.50","currency":"EUR","requisite":{"type":"card"}}' ${url}/payments`,
      `curl -H 'X-Public-Key: pk_test' -H 'X-Secret-Key: sk_test' ${url}/merchant/v1/payments`,
      `dashboard ${url}/_dashboard/ (sign in with the same token, test-token, to see that payment)`,
      webhookUrls.length > 0
        ? `webhooks go to ${webhookUrls.join(', ')}, signed with ${process.env.WEBHOOK_SECRET ? 'WEBHOOK_SECRET' : `the generated secret ${webhookSecret}`}; verify them with createNodeWebhookHandler`
        : `webhooks: restart with --webhook-url <your receiver's URL> (WEBHOOK_SECRET=whsec_… to choose the secret); verify them with createNodeWebhookHandler`,
    ],
  },
  {
    name: 'docs',
    port: portOf(flags['port-docs'] ?? process.env.DOCS_PORT ?? '4012', 'port-docs'),
    files: [
      'packages/contract/generated/openapi/variant-a.yaml',
      'packages/contract/generated/openapi/variant-b.yaml',
      'packages/contract/generated/openapi/sandbox.yaml',
      'packages/contract/generated/openapi/admin.yaml',
      'docs/assumptions.md',
    ],
    // Note: rebuilt on every start, in a child process while Prism starts, so the pages always match the specs; into a
    // folder of this start's own, so that two starts (two test runs) never rebuild each other's pages.
    start: async (s) => {
      await assertPortFree(s.port, host);
      siteDir = mkdtempSync(path.join(os.tmpdir(), 'merchant-payments-docs-'));
      await runInChild('npm run docs', path.join(root, 'scripts/docs.mjs'), ['--out', siteDir]);
      return startStaticServer({ dir: siteDir, port: s.port, host });
    },
    hint: (url) =>
      `guides ${url}/  reference ${url}/variant-a.html ${url}/variant-b.html ${url}/sandbox.html ${url}/admin.html`,
  },
];

const running = [];
let stopping = false;

async function main() {
  for (const s of servers) {
    for (const file of s.files) {
      if (!existsSync(path.join(root, file))) fail(`Missing ${file}: run npm run bundle first.`);
    }
  }
  for (const s of servers) await assertPortFree(s.port, host);
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(name, () => shutdown(0));
  // Note: killing npm (even with SIGKILL) leaves its `sh -c` and this process running; stop when the launcher is gone.
  // Each child leads its own process group and watches a pipe from this process, so a SIGKILL here takes them down too.
  watchParent(() => shutdown(0));
  const started = Date.now();
  const results = await Promise.allSettled(servers.map((s) => s.start(s)));
  results.forEach((r) => r.status === 'fulfilled' && running.push(r.value));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    console.error(failed.reason.message);
    return shutdown(1);
  }
  servers.forEach((s, i) =>
    running[i].exited?.then((code) => {
      if (stopping) return;
      console.error(`${s.name} exited unexpectedly (${code}); stopping the others.`);
      shutdown(1);
    }),
  );
  console.log(`Mock servers, sandbox and docs ready in ${Date.now() - started} ms (Ctrl-C to stop):`);
  servers.forEach((s, i) => {
    console.log(`  ${s.name}  ${running[i].url}`);
    for (const line of [s.hint(running[i].url)].flat()) console.log(`    ${line}`);
  });
}

/** Stops every running server by pid, then exits with `code`. */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await Promise.all(running.map((r) => r.stop()));
  for (const dir of [siteDir, dashboardDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}

/** Runs a Node `script` with `args` in a child tied to this process; rejects with its output, naming `what`, if it fails. */
function runInChild(what, script, args, env = {}) {
  const child = spawnTiedNode(script, args, { cwd: root, env: { ...process.env, ...env } });
  const output = collectOutput(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${what} failed (${code}):\n${output()}`)),
    );
  });
}

function portOf(value, flag) {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--${flag} must be a TCP port, got "${value}".`);
  return port;
}

function prefixed(name) {
  // Note: Prism announces its start on every launch; the ready message below says it better.
  return (line) => /Starting Prism/.test(line) || process.stderr.write(`[${name}] ${line}\n`);
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

main().catch((err) => {
  console.error(err.message);
  return shutdown(1);
});
