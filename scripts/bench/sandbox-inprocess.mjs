// The sandbox measured in-process, in a child process of the bench so that neither the bench's own heap nor one
// measurement's garbage shows in another: `sandbox.fetch` operations per second, and memory and list latency with a
// large store. Prints one JSON line; scripts/bench/sandbox.mjs turns it into rows.
//   node scripts/bench/sandbox-inprocess.mjs --mode ops --runs <n> --batch <n>
//   node --expose-gc scripts/bench/sandbox-inprocess.mjs --mode store --payments <n> --runs <n> --batch <n>
import v8 from 'node:v8';
import { parseArgs } from 'node:util';
import { interleaved, timeMs } from './stats.mjs';
import { validatingSandbox } from './sandbox-server.mjs';

const ORIGIN = 'http://sandbox.test';
const { values } = parseArgs({
  options: {
    mode: { type: 'string' },
    payments: { type: 'string' },
    runs: { type: 'string' },
    batch: { type: 'string' },
  },
});
const runs = Number(values.runs ?? 5);
const batch = Number(values.batch ?? 500);

const credentials = (publicKey) => ({ 'x-public-key': publicKey, 'x-secret-key': `sk_${publicKey}` });

/** A Create Payment request as a merchant's integration sends it; `declined` picks the magic amount that fails it. */
function createRequest(publicKey, key, { declined = false } = {}) {
  const body = {
    amount: declined ? '9.01' : '42.50',
    currency: 'EUR',
    expires_in: 1800,
    requisite: { type: 'card', bank: 'Example Bank' },
    metadata: { order_id: `order-${key}` },
  };
  return new Request(`${ORIGIN}/merchant/v1/payments`, {
    method: 'POST',
    headers: { ...credentials(publicKey), 'content-type': 'application/json', 'idempotency-key': `key-${key}` },
    body: JSON.stringify(body),
  });
}

/** Sends a request through sandbox.fetch, reads the body, and insists on a 200. */
async function call(sandbox, request) {
  const response = await sandbox.fetch(request);
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(
      `${request.method} ${new URL(request.url).pathname} answered ${response.status}: ${text.slice(0, 300)}`,
    );
  return text;
}

/** Fills a tenant with `count` payments over the API; every fourth one is declined, so that a status filter matches a quarter. */
async function fill(sandbox, publicKey, count) {
  for (let i = 0; i < count; i++) await call(sandbox, createRequest(publicKey, i, { declined: i % 4 === 0 }));
  // Note: an hour on the tenant's clock runs every payment's lifecycle (pending, then succeeded or failed) and its expiry timer.
  await sandbox.advance({ publicKey }, 3600);
}

/** Heap used and RSS in bytes, after full collections. */
function memory() {
  for (let i = 0; i < 3; i++) globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

async function opsPerSecond() {
  const { createSandbox, options } = await validatingSandbox();
  const sandbox = createSandbox({ ...options, clock: 'manual', seed: 'bench' });
  const id = JSON.parse(await call(sandbox, createRequest('pk_ops', 'first'))).data.id;
  let key = 0;
  const get = () =>
    call(sandbox, new Request(`${ORIGIN}/merchant/v1/payments/${id}`, { headers: credentials('pk_ops') }));
  const post = () => call(sandbox, createRequest('pk_ops', key++));
  const rate = (fn) => async () =>
    (batch /
      (await timeMs(async () => {
        for (let i = 0; i < batch; i++) await fn();
      }))) *
    1000;
  const results = await interleaved({ get: rate(get), post: rate(post) }, { runs, warmup: 1 });
  await sandbox.close();
  return results;
}

async function store() {
  const payments = Number(values.payments);
  const { createSandbox, options } = await validatingSandbox();
  const sandbox = createSandbox({ ...options, clock: 'manual', seed: 'bench' });
  await fill(sandbox, 'pk_small', 100);
  // Note: the empty-store reading is taken with the small tenant already in, so the code that runs is loaded and warm.
  const empty = memory();
  const started = performance.now();
  await fill(sandbox, 'pk_large', payments);
  const fillMs = performance.now() - started;
  const full = memory();
  const heapSpaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]));

  const list = (publicKey, query) => () =>
    call(sandbox, new Request(`${ORIGIN}/merchant/v1/payments?${query}`, { headers: credentials(publicKey) }));
  const perCall = (fn) => async () =>
    ((await timeMs(async () => {
      for (let i = 0; i < batch; i++) await fn();
    })) /
      batch) *
    1000;
  const contenders = {};
  for (const query of ['limit=20', 'limit=20&status=failed']) {
    for (const [label, publicKey] of [
      ['small', 'pk_small'],
      ['large', 'pk_large'],
    ])
      contenders[`${query} ${label}`] = perCall(list(publicKey, query));
  }
  // Both pages are full (20 items), so the two stores do the same work per request.
  for (const name of Object.keys(contenders)) {
    const page = JSON.parse(await list(name.endsWith('small') ? 'pk_small' : 'pk_large', name.split(' ')[0])());
    if (page.data.length !== 20) throw new Error(`${name} gave a page of ${page.data.length}`);
  }
  const latency = await interleaved(contenders, { runs, warmup: 1 });
  // Note: the sandbox stays referenced until here, so that nothing of the large store was collected before the readings.
  const held = await sandbox.store.transaction(sandbox.tenantId({ publicKey: 'pk_large' }), (tenant) => ({
    payments: tenant.payments.count(),
    events: tenant.eventsMade - tenant.eventsDropped,
    // Note: the memory store keeps a tenant's keys in a Map (packages/sandbox/src/stores/memory-tenant.ts).
    idempotency: tenant.idempotency.size,
  }));
  await sandbox.close();
  return { payments, empty, full, fillMs, heapSpaces, held, latency };
}

const result = values.mode === 'ops' ? await opsPerSecond() : await store();
process.stdout.write(`${JSON.stringify(result)}\n`);
