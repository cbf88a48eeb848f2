// The postgres section's instances and the requests it sends them: instances of sandbox-postgres-server.mjs as
// children on free ports, Variant B calls that insist on a 200, autocannon runs by time or by count, and sequential
// samples bounded by a count and a time budget.
import path from 'node:path';
import autocannon from 'autocannon';
import { root } from '../lib/tools.mjs';
import { PAYMENT, start } from './sandbox.mjs';

const SERVER = path.join(root, 'scripts/bench/sandbox-postgres-server.mjs');

/** Variant B credentials of a public key; its secret key is `sk_<public key>` unless one is given. */
export const credentials = (publicKey, secretKey = `sk_${publicKey}`) => ({
  'x-public-key': publicKey,
  'x-secret-key': secretKey,
});

/** Starts an instance of sandbox-postgres-server.mjs and resolves once it listens. */
export async function instance(
  name,
  { store, clock = 'manual', databaseUrl, idleTenants = 0, maxTenants, timeoutMs = 120_000 },
) {
  const args = ['--store', store, '--clock', clock, '--idle-tenants', String(idleTenants)];
  if (maxTenants !== undefined) args.push('--max-tenants', String(maxTenants));
  const server = await start(name, {
    command: (port) => [SERVER, '--port', String(port), ...args],
    env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
  });
  const started = performance.now();
  while (!server.output().includes('listening on')) {
    if (server.dead() || performance.now() - started > timeoutMs) {
      await server.stop();
      throw new Error(`${name} did not start:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return server;
}

/** Sends one request and insists on `status` (a 200 unless given); the parsed body. */
export async function call(url, init, status = 200) {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== status)
    throw new Error(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

let keys = 0;
/** Creates a payment in the tenant of `publicKey`; the answer's body. */
export const create = (server, publicKey) =>
  call(`${server.url}/merchant/v1/payments`, {
    method: 'POST',
    headers: {
      ...credentials(publicKey),
      'content-type': 'application/json',
      'idempotency-key': `bench-${process.pid}-${keys++}`,
    },
    body: PAYMENT,
  });

/** Autocannon requests that rotate over `tenants` ({ publicKey, paymentId }): GET retrieve and POST create. */
export function rotating(tenants) {
  let n = 0;
  const next = () => tenants[n++ % tenants.length];
  const run = `${process.pid}-${Date.now()}`;
  return {
    GET: {
      method: 'GET',
      path: '/merchant/v1/payments',
      setupRequest: (request) => {
        const tenant = next();
        return {
          ...request,
          path: `/merchant/v1/payments/${tenant.paymentId}`,
          headers: credentials(tenant.publicKey),
        };
      },
    },
    POST: {
      method: 'POST',
      path: '/merchant/v1/payments',
      body: PAYMENT,
      setupRequest: (request) => ({
        ...request,
        headers: {
          ...credentials(next().publicKey),
          'content-type': 'application/json',
          'idempotency-key': `${run}-${n}`,
        },
      }),
    },
  };
}

/** `count` tenants of `server`, each with one payment to retrieve, as rotating autocannon requests. */
export async function loadTenants(server, label, count) {
  const tenants = [];
  for (let i = 0; i < count; i++) {
    const publicKey = `pk_load_${label}_${i}`;
    tenants.push({ publicKey, paymentId: (await create(server, publicKey)).data.id });
  }
  return rotating(tenants);
}

/**
 * One autocannon run against `url`, for `seconds` or, given `amount`, for that many requests; every answer must be a
 * 2xx unless `failures` is set. Resolves to the 2xx answers a second, their count and the failures'.
 */
export async function hammer(url, { seconds, amount, connections, request, failures = false }) {
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    ...(amount === undefined ? { duration: seconds } : { amount }),
    requests: [request],
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0 && !failures)
    throw new Error(
      `${url}${request.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} time-outs`,
    );
  return { perSecond: result['2xx'] / result.duration, count: result['2xx'], failed };
}

/**
 * Runs `fn(i)` one call after another until `count` calls or `budgetMs` have passed (at least one call); the
 * milliseconds of each. Note: the budget keeps a store that takes seconds a request from holding the section for hours.
 */
export async function bounded({ count, budgetMs }, fn) {
  const times = [];
  const started = performance.now();
  while (times.length < count && (times.length === 0 || performance.now() - started < budgetMs)) {
    const t = performance.now();
    await fn(times.length);
    times.push(performance.now() - t);
  }
  return times;
}

/** The `p`th percentile of `values` (nearest rank). */
export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
