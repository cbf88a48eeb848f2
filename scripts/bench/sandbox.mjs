// The stateful sandbox against Prism (the static contract mock), both as users run them, from the built dist:
// `merchant-payments-sandbox` and `merchant-payments-mock --variant b`. Cold start to the first 200 (spawn included),
// GET and POST requests per second over HTTP with one load generator (autocannon) for both, in-process
// `sandbox.fetch` operations per second, memory with a large store, and list latency at 100 and at N payments.
// Every child is started on a free 127.0.0.1 port and stopped by its pid.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import getPort from 'get-port';
import { root } from '../lib/tools.mjs';
import { validatingSandbox } from './sandbox-server.mjs';
import { interleaved, summarize } from './stats.mjs';

const SECTION = 'sandbox';
const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
/** The credentials every bench request sends (Variant B). */
export const CREDENTIALS = { 'x-public-key': 'pk_bench', 'x-secret-key': 'sk_bench' };
/** A Create Payment body. */
export const PAYMENT = JSON.stringify({
  amount: '42.50',
  currency: 'EUR',
  expires_in: 1800,
  requisite: { type: 'card', bank: 'Example Bank' },
  metadata: { order_id: 'order-1042' },
});
/** An id Prism's examples answer for; the sandbox's is created before the run. */
const PRISM_PAYMENT_ID = 'pay_8f3k2m9q4w7x';
const MB = 2 ** 20;
/** The in-memory store's scale: payments in one tenant that the full run fills it with and the targets are set at. */
const STORE_SCALE = 10_000;

/** The commands users run, from the packages' dist. */
const COMMANDS = {
  sandbox: (port) => [
    path.join(root, 'packages/sandbox/bin/merchant-payments-sandbox.mjs'),
    '--port',
    String(port),
    '--clock',
    'manual',
  ],
  prism: (port) => [
    path.join(root, 'packages/cli/bin/merchant-payments-mock.mjs'),
    '--variant',
    'b',
    '--port',
    String(port),
  ],
  // Note: until createSandbox validates by default, the bin does not; this runs the same createSandbox().listen() with
  // the contract's validators passed in, so that the figures are those of a validating sandbox.
  'sandbox, validators passed': (port) => [path.join(root, 'scripts/bench/sandbox-server.mjs'), '--port', String(port)],
  'node:http': (port) => [path.join(root, 'scripts/bench/fixed-server.mjs'), '--port', String(port)],
};

/** Builds the packages when a dist/ is missing or older than a file of a package's src/ or the contract's generated/. */
export function ensureBuilt() {
  const built = path.join(root, 'packages/cli/dist/src/main.js');
  const newest = (dir) =>
    readdirSync(dir, { withFileTypes: true, recursive: true })
      // Note: only what tsc reads; a README edited in src/ needs no build.
      .filter((entry) => entry.isFile() && /\.(ts|js|json)$/.test(entry.name))
      .reduce(
        (latest, entry) => Math.max(latest, statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs),
        0,
      );
  if (
    existsSync(built) &&
    statSync(built).mtimeMs >=
      Math.max(
        ...['contract', 'sandbox', 'conformance', 'cli'].map((name) =>
          newest(path.join(root, 'packages', name, 'src')),
        ),
        newest(path.join(root, 'packages/contract/generated')),
      )
  )
    return;
  process.stderr.write(' (building dist)');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}

/**
 * Starts one of COMMANDS, or `command` (its arguments for a port) under `name`, with `env` added; stop() sends SIGTERM
 * to its pid (SIGKILL after 5 s) and resolves once it has exited.
 */
export async function start(name, { command = COMMANDS[name], env = {} } = {}) {
  const port = await getPort();
  const child = spawn(process.execPath, command(port), {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', WEBHOOK_SECRET: SECRET, ...env },
  });
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop,
    exited,
    output: () => output,
    dead: () => child.exitCode !== null || child.signalCode !== null,
  };
}

/** Starts a server and resolves with the ms from spawn to its first 200 to a list request, and the server. */
async function firstOk(name, { timeoutMs = 60_000 } = {}) {
  const started = performance.now();
  const server = await start(name);
  for (;;) {
    if (server.dead()) throw new Error(`${name} exited before answering:\n${server.output()}`);
    if (performance.now() - started > timeoutMs) {
      await server.stop();
      throw new Error(`${name} gave no 200 in ${timeoutMs} ms:\n${server.output()}`);
    }
    try {
      const response = await fetch(`${server.url}/merchant/v1/payments?limit=20`, { headers: CREDENTIALS });
      await response.arrayBuffer();
      if (response.status === 200) return { ms: performance.now() - started, server };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Cold start to the first 200 of each command, interleaved rounds; each server is stopped by pid before the next starts. */
async function coldStart({ names, runs, warmup }) {
  const contenders = Object.fromEntries(
    names.map((name) => [
      name,
      async () => {
        const { ms, server } = await firstOk(name);
        await server.stop();
        return ms;
      },
    ]),
  );
  return interleaved(contenders, { runs, warmup });
}

/** Requests per second one autocannon run gets from `url`; every answer must be a 2xx. */
export async function load(url, { seconds, connections, request }) {
  const result = await autocannon({ url, connections, pipelining: 1, duration: seconds, requests: [request] });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0)
    throw new Error(
      `${url}${request.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} time-outs`,
    );
  return result['2xx'] / result.duration;
}

/** GET retrieve and POST create (a new Idempotency-Key each) at `server`, as autocannon requests. */
function requests(server, paymentId) {
  let key = 0;
  const run = `${server.name.replace(/\W+/g, '-')}-${Date.now()}`;
  return {
    GET: { method: 'GET', path: `/merchant/v1/payments/${paymentId}`, headers: CREDENTIALS },
    POST: {
      method: 'POST',
      path: '/merchant/v1/payments',
      headers: { ...CREDENTIALS, 'content-type': 'application/json' },
      body: PAYMENT,
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, 'idempotency-key': `${run}-${key++}` },
      }),
    },
  };
}

/**
 * GET and POST throughput of the validating sandbox, of Prism and of a bare node:http server (the ceiling), interleaved,
 * the same client for all.
 */
async function throughput({ runs, warmup, seconds, connections, validatorsPassed }) {
  const servers = await Promise.all(
    [validatorsPassed ? 'sandbox, validators passed' : 'sandbox', 'prism', 'node:http'].map(firstOk),
  ).then((started) => started.map((s) => s.server));
  const [sandbox, prism, fixed] = servers;
  try {
    const created = await fetch(`${sandbox.url}/merchant/v1/payments`, {
      method: 'POST',
      headers: { ...CREDENTIALS, 'content-type': 'application/json', 'idempotency-key': 'bench-first' },
      body: PAYMENT,
    });
    if (created.status !== 200)
      throw new Error(`the sandbox answered ${created.status} to Create Payment: ${await created.text()}`);
    const sandboxRequests = requests(sandbox, (await created.json()).data.id);
    const prismRequests = requests(prism, PRISM_PAYMENT_ID);
    const fixedRequests = requests(fixed, PRISM_PAYMENT_ID);
    const contenders = {};
    for (const method of ['GET', 'POST']) {
      contenders[`${method} sandbox`] = () =>
        load(sandbox.url, { seconds, connections, request: sandboxRequests[method] });
      contenders[`${method} Prism`] = () => load(prism.url, { seconds, connections, request: prismRequests[method] });
      contenders[`${method} node:http`] = () =>
        load(fixed.url, { seconds, connections, request: fixedRequests[method] });
    }
    return await interleaved(contenders, { runs, warmup });
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Runs scripts/bench/sandbox-inprocess.mjs in a child process and parses the JSON line it prints. */
function inProcess(args, nodeArgs = []) {
  const out = execFileSync(
    process.execPath,
    [...nodeArgs, path.join(root, 'scripts/bench/sandbox-inprocess.mjs'), ...args],
    { cwd: root, encoding: 'utf8', maxBuffer: 16 * MB },
  );
  return JSON.parse(out.trim().split('\n').at(-1));
}

const row = (name, unit, summary, extra = {}) => ({ section: SECTION, name, unit, ...summary, ...extra });
const once = (value) => summarize([value]);

/** Every row of the sandbox section, and the notes that say how it ran. */
export async function sandboxBench({ quick }) {
  const settings = quick
    ? {
        coldRuns: 1,
        coldWarmup: 0,
        loadRuns: 1,
        loadWarmup: 0,
        loadSeconds: 1,
        connections: 10,
        fetchRuns: 3,
        fetchBatch: 300,
        payments: 2_000,
        listRuns: 3,
        listBatch: 100,
      }
    : {
        coldRuns: 4,
        coldWarmup: 1,
        loadRuns: 3,
        loadWarmup: 1,
        loadSeconds: 2,
        connections: 10,
        fetchRuns: 7,
        fetchBatch: 1000,
        payments: STORE_SCALE,
        listRuns: 7,
        listBatch: 500,
      };
  ensureBuilt();
  const { how } = await validatingSandbox();
  const validatorsPassed = how !== 'validation on by default';
  const rows = [];
  const notes = [
    `Sandbox: runs the built dist (what merchant-payments-sandbox runs), contract validation on (${how}); Prism is merchant-payments-mock --variant b (Prism 5.14, --errors). Load: autocannon, ${settings.connections} connections, ${settings.loadSeconds} s per sample.`,
  ];

  const coldNames = ['sandbox', ...(validatorsPassed ? ['sandbox, validators passed'] : []), 'prism'];
  const cold = await coldStart({ names: coldNames, runs: settings.coldRuns, warmup: settings.coldWarmup });
  for (const name of coldNames) {
    const s = cold[name];
    const label = {
      sandbox: 'merchant-payments-sandbox',
      'sandbox, validators passed': 'sandbox with the contract validators passed in',
      prism: 'merchant-payments-mock (Prism)',
    }[name];
    const extra =
      name === 'prism'
        ? {}
        : { ratio: s.median / cold.prism.median, baseline: 'Prism', target: '<= 0.5 s', met: s.median <= 500 };
    rows.push(row(`cold start to first 200 (spawn included): ${label}`, 'ms', s, extra));
  }

  const http = await throughput({
    runs: settings.loadRuns,
    warmup: settings.loadWarmup,
    seconds: settings.loadSeconds,
    connections: settings.connections,
    validatorsPassed,
  });
  for (const [method, label] of [
    ['GET', 'GET retrieve payment'],
    ['POST', 'POST create payment (new Idempotency-Key each)'],
  ]) {
    const ours = http[`${method} sandbox`];
    const theirs = http[`${method} Prism`];
    const ceiling = http[`${method} node:http`];
    rows.push(row(`HTTP ${label}, ${settings.connections} connections: Prism`, 'req/s', theirs));
    rows.push(
      row(`HTTP ${label}, ${settings.connections} connections: sandbox`, 'req/s', ours, {
        ratio: ours.median / theirs.median,
        baseline: 'Prism',
        target: '>= 10x',
        met: ours.median / theirs.median >= 10,
      }),
    );
    rows.push(
      row(
        `HTTP ${label}, ${settings.connections} connections: bare node:http, fixed answer (ceiling)`,
        'req/s',
        ceiling,
        {
          ratio: ceiling.median / theirs.median,
          baseline: 'Prism',
        },
      ),
    );
  }

  const ops = inProcess([
    '--mode',
    'ops',
    '--runs',
    String(settings.fetchRuns),
    '--batch',
    String(settings.fetchBatch),
  ]);
  rows.push(row(`in-process sandbox.fetch, GET retrieve payment, ${settings.fetchBatch} sequential`, 'ops/s', ops.get));
  rows.push(row(`in-process sandbox.fetch, POST create payment, ${settings.fetchBatch} sequential`, 'ops/s', ops.post));

  const store = inProcess(
    [
      '--mode',
      'store',
      '--payments',
      String(settings.payments),
      '--runs',
      String(settings.listRuns),
      '--batch',
      String(settings.listBatch),
    ],
    ['--expose-gc'],
  );
  const count = store.payments.toLocaleString('en-US');
  const atTarget = store.payments === STORE_SCALE;
  for (const [key, label] of [
    ['heapUsed', 'heap used'],
    ['rss', 'RSS'],
  ]) {
    rows.push(row(`memory after GC, 100 payments: ${label}`, 'MB', once(store.empty[key] / MB)));
    rows.push(
      row(`memory after GC, ${count} more payments: ${label}`, 'MB', once(store.full[key] / MB), {
        ratio: store.full[key] / store.empty[key],
        baseline: '100 payments',
        ...(atTarget ? { target: '<= 150 MB', met: store.full[key] / MB <= 150 } : {}),
      }),
    );
  }
  notes.push(
    `Sandbox store: ${count} payments created through sandbox.fetch in ${(store.fillMs / 1000).toFixed(1)} s (a quarter declined by a magic amount), then an hour on the tenant's clock so every lifecycle ran; the tenant then holds ${store.held.events.toLocaleString('en-US')} events and ${store.held.idempotency.toLocaleString('en-US')} idempotency records.`,
  );
  for (const [query, label] of [
    ['limit=20', 'GET /merchant/v1/payments?limit=20'],
    ['limit=20&status=failed', 'GET /merchant/v1/payments?limit=20&status=failed'],
  ]) {
    const small = store.latency[`${query} small`];
    const large = store.latency[`${query} large`];
    rows.push(row(`list latency, sandbox.fetch, ${label}: 100 payments`, 'µs', small));
    rows.push(
      row(`list latency, sandbox.fetch, ${label}: ${count} payments`, 'µs', large, {
        ratio: large.median / small.median,
        baseline: '100 payments',
        // Note: a page filters every payment of the tenant, so the target is a time at the store's scale, not a flat ratio.
        ...(atTarget ? { target: '<= 1 ms', met: large.median <= 1000 } : {}),
      }),
    );
  }
  return { rows, notes, settings };
}
