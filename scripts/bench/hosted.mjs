// Hosted mode's costs, each against a baseline in the same run, on the memory store, from the built dist:
// - a GET retrieve with issued credentials and a per-tenant rate limit (checked, never reached) against the same GET
//   in open mode, over HTTP (autocannon), interleaved;
// - an issued-mode instance's memory after 100,000 requests with distinct credentials nobody issued (each a 401),
//   against the same number of requests repeating one unknown credential (what noise alone grows it by).
// Every child is started on a free 127.0.0.1 port and stopped by its pid.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import { root } from '../lib/tools.mjs';
import { CREDENTIALS, PAYMENT, ensureBuilt, load, start } from './sandbox.mjs';
import { interleaved, summarize } from './stats.mjs';

const SECTION = 'hosted';
const MB = 2 ** 20;
const UNKNOWN = 100_000;
const ADMIN_TOKEN = randomBytes(32).toString('base64url');
const bin = path.join(root, 'packages/sandbox/bin/merchant-payments-sandbox.mjs');
const sandbox = (extra) => (port) => [bin, '--port', String(port), '--clock', 'manual', ...extra];

/** Resolves to `server` once its /readyz answers 200; throws if it exits or takes a minute. */
export async function ready(server) {
  for (let waited = 0; waited < 60_000; waited += 20) {
    if (server.dead()) throw new Error(`${server.name} exited:\n${server.output()}`);
    try {
      if ((await fetch(`${server.url}/readyz`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${server.name} was not ready in 60 s:\n${server.output()}`);
}

async function json(response, what) {
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A payment made with `headers` at `url`; the GET request that retrieves it. */
async function retrieveRequest(url, headers) {
  const created = await json(
    await fetch(`${url}/merchant/v1/payments`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': 'hosted-bench' },
      body: PAYMENT,
    }),
    'Create Payment',
  );
  return { method: 'GET', path: `/merchant/v1/payments/${created.data.id}`, headers };
}

/** One sample of the instance's own /metrics. */
async function sample(url, name) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
}

/**
 * The instance's tenants, resident bytes and heap bytes, read from its own /metrics; the heap as the least of a few
 * samples a moment apart, so that garbage a collection has not reached yet does not count as growth.
 */
async function memory(url) {
  const heaps = [];
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    heaps.push(await sample(url, 'nodejs_heap_size_used_bytes'));
  }
  return {
    tenants: await sample(url, 'sandbox_tenants'),
    rss: await sample(url, 'process_resident_memory_bytes'),
    heap: Math.min(...heaps),
  };
}

/** Sends `amount` requests with the token `tokenOf(i)` gives; every one must be a 401. */
async function unknownRequests(url, amount, tokenOf) {
  let i = 0;
  const result = await autocannon({
    url,
    connections: 10,
    amount,
    requests: [
      {
        method: 'GET',
        path: '/payments',
        setupRequest: (request) => ({ ...request, headers: { authorization: `Bearer ${tokenOf(i++)}` } }),
      },
    ],
  });
  const refused = result.statusCodeStats['401']?.count ?? 0;
  if (refused !== amount)
    throw new Error(
      `${url}: ${refused} of ${amount} unknown credentials got 401 (${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors)`,
    );
}

const row = (name, unit, summary, extra = {}) => ({ section: SECTION, name, unit, ...summary, ...extra });

/** Every row of the hosted section, and the note that says how it ran. */
export async function hostedBench({ quick }) {
  const settings = quick
    ? { runs: 1, warmup: 0, seconds: 1, connections: 10, unknown: 10_000 }
    : { runs: 5, warmup: 1, seconds: 2, connections: 10, unknown: UNKNOWN };
  ensureBuilt();
  const env = { SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN };
  const open = await ready(await start('open', { command: sandbox([]), env }));
  const issued = await ready(
    await start('issued', { command: sandbox(['--auth', 'issued', '--rate-limit', '1000000']), env }),
  );
  const servers = [open, issued];
  try {
    const tenant = await json(
      await fetch(`${issued.url}/_admin/tenants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
      'Create Tenant',
    );
    const requests = {
      open: await retrieveRequest(open.url, CREDENTIALS),
      issued: await retrieveRequest(issued.url, {
        'x-public-key': tenant.data.public_key,
        'x-secret-key': tenant.data.secret_key,
      }),
    };
    const get = await interleaved(
      {
        open: () =>
          load(open.url, { seconds: settings.seconds, connections: settings.connections, request: requests.open }),
        issued: () =>
          load(issued.url, { seconds: settings.seconds, connections: settings.connections, request: requests.issued }),
      },
      { runs: settings.runs, warmup: settings.warmup },
    );
    const cost = get.open.median / get.issued.median;
    const rows = [
      row(`HTTP GET retrieve payment, ${settings.connections} connections: open mode`, 'req/s', get.open),
      row(
        `HTTP GET retrieve payment, ${settings.connections} connections: issued credentials and a rate limit`,
        'req/s',
        get.issued,
        {
          ratio: cost,
          baseline: 'open mode (time per request)',
          target: '<= 1.10',
          met: cost <= 1.1,
        },
      ),
    ];

    // Note: the baseline repeats one unknown credential as many times, so that what the instance grows by anyway
    // (buffers, the JIT, metrics' series) is measured in the same run and told apart from what distinct ones would add.
    const before = await memory(issued.url);
    await unknownRequests(issued.url, settings.unknown, () => 'never-issued');
    const afterSame = await memory(issued.url);
    await unknownRequests(issued.url, settings.unknown, (i) => `unknown-${i}-${randomBytes(8).toString('hex')}`);
    const afterDistinct = await memory(issued.url);
    const noise = afterSame.heap - before.heap;
    const growth = afterDistinct.heap - afterSame.heap;
    rows.push(
      row(
        `issued mode, heap growth over ${settings.unknown.toLocaleString('en')} requests repeating one unknown credential (noise)`,
        'MB',
        summarize([noise / MB]),
      ),
      row(
        `issued mode, heap growth over ${settings.unknown.toLocaleString('en')} requests with distinct unknown credentials`,
        'MB',
        summarize([growth / MB]),
        {
          baseline: 'the same count repeating one credential',
          target: 'no growth beyond noise',
          met: growth <= Math.max(noise, 0) + 2 * MB && afterDistinct.tenants === before.tenants,
        },
      ),
      row(
        'issued mode, tenants in the store before and after both runs',
        'tenants',
        summarize([afterDistinct.tenants]),
        { baseline: `${before.tenants} before` },
      ),
      row('issued mode, RSS after both runs', 'MB', summarize([afterDistinct.rss / MB])),
    );
    return {
      rows,
      settings,
      notes: [
        `Hosted: two sandboxes from dist on the memory store, --clock manual; issued with --auth issued --rate-limit 1000000 (checked on every request, never reached) and a tenant from POST /_admin/tenants. GET: autocannon, ${settings.connections} connections, ${settings.seconds} s per sample, interleaved. Memory: the instance's own nodejs_heap_size_used_bytes and process_resident_memory_bytes from /metrics; the 2 MB margin is what one prom-client scrape and autocannon's connections can move the heap by.`,
      ],
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
