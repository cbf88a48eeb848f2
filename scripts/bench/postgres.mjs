// The sandbox on PostgreSQL (createPostgresStore) beside the memory store in the same run: creates and retrieves per
// second over HTTP with 1 and 2 instances, the latency of a sequential durable create, the first list page at a small
// and a large tenant seeded with SQL with the instance's RSS after it, and the CPU of 30,000 idle real-clock tenants.
// It starts a throwaway cluster of its own (test/postgres/cluster.ts, fsync on, since the rows are about durable
// commits) and stops it by its pid in `finally`; every sandbox instance is a child on a free port, stopped by its pid.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { tsImport } from 'tsx/esm/api';
import { root } from '../lib/tools.mjs';
import { PAYMENT, ensureBuilt, load, start } from './sandbox.mjs';
import { interleaved, summarize, timeMs } from './stats.mjs';

const SECTION = 'postgres';
const MB = 2 ** 20;
/** The sizes the issue sets its targets at. */
const SCALE = 1_000_000;
const SMALL = 1_000;
const IDLE_TENANTS = 30_000;
/** Tenants each load run spreads its requests over, so that the load is many merchants', not one serialised tenant's. */
const LOAD_TENANTS = 10;
const SERVER = path.join(root, 'scripts/bench/sandbox-postgres-server.mjs');

const credentials = (publicKey) => ({ 'x-public-key': publicKey, 'x-secret-key': `sk_${publicKey}` });
// Note: as src/sandbox/tenants.ts names a Variant B tenant, so that SQL can reach the tenant a public key makes.
const tenantId = (publicKey) => `b_${createHash('sha256').update(publicKey).digest('base64url').slice(0, 22)}`;

/** The folder of initdb, as test/postgres/cluster.ts looks for it; undefined when PostgreSQL is not installed. */
function pgBinaries() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  return existsSync(base)
    ? readdirSync(base).find((major) => existsSync(path.join(base, major, 'bin/initdb')))
    : undefined;
}

/** Runs `fn` with a connected client of `url` and ends it. */
async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates database `name` on the cluster; its URL. */
async function database(clusterUrl, name) {
  await withClient(clusterUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/** Starts an instance of sandbox-postgres-server.mjs and resolves once it listens. */
async function instance(name, { store, clock = 'manual', databaseUrl, idleTenants = 0, timeoutMs = 120_000 }) {
  const args = ['--store', store, '--clock', clock, '--idle-tenants', String(idleTenants)];
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

/** Sends one request and insists on a 200; the parsed body. */
async function call(url, init) {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

let keys = 0;
const create = (server, publicKey) =>
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
function rotating(tenants) {
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

/** LOAD_TENANTS tenants of `server`, each with one payment to retrieve. */
async function loadTenants(server, label) {
  const tenants = [];
  for (let i = 0; i < LOAD_TENANTS; i++) {
    const publicKey = `pk_load_${label}_${i}`;
    tenants.push({ publicKey, paymentId: (await create(server, publicKey)).data.id });
  }
  return rotating(tenants);
}

/** Per-create milliseconds of `count` sequential creates through fetch in one tenant. */
async function sequentialCreates(server, publicKey, count) {
  const times = [];
  for (let i = 0; i < count; i++) times.push(await timeMs(() => create(server, publicKey)));
  return times;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/**
 * Copies the tenant's one payment (made through the API) into payments `from` to `to` with SQL, in the columns of
 * sandbox_objects, and brings the tenant row along: a new version (so that instances reload it), the id count, and the
 * ledger, to which every copy adds what the original does.
 */
async function seedPayments(client, publicKey, from, to) {
  const tenant = tenantId(publicKey);
  const columns = (
    await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'sandbox_objects' ORDER BY ordinal_position`,
    )
  ).rows.map((r) => r.column_name);
  const made = {
    tenant_id: 't.tenant_id',
    id: 'g.id',
    position: 't.position + g.n',
    record: `replace(t.record::text, '"' || t.id || '"', '"' || g.id || '"')::json`,
  };
  const { rows: originals } = await client.query(
    `SELECT id FROM sandbox_objects WHERE tenant_id = $1 AND kind = 'payment'`,
    [tenant],
  );
  if (originals.length !== 1)
    throw new Error(`seeding expects one payment in ${publicKey}'s tenant, found ${originals.length}`);
  const batch = 200_000;
  for (let first = from; first <= to; first += batch) {
    await client.query(
      `INSERT INTO sandbox_objects (${columns.join(', ')})
        SELECT ${columns.map((c) => made[c] ?? `t.${c}`).join(', ')}
        FROM sandbox_objects t, (SELECT n, 'pay_s' || lpad(n::text, 11, '0') AS id FROM generate_series($2::bigint, $3::bigint) AS n) AS g
        WHERE t.tenant_id = $1 AND t.kind = 'payment' AND t.id = $4`,
      [tenant, first, Math.min(to, first + batch - 1), originals[0].id],
    );
  }
  const { rows } = await client.query('SELECT ledger::text AS ledger FROM sandbox_tenants WHERE id = $1', [tenant]);
  const total = BigInt(to);
  const ledger = JSON.parse(rows[0].ledger).map(([currency, available, pending]) => [
    currency,
    String(BigInt(available) * total),
    String(BigInt(pending) * total),
  ]);
  await client.query(
    `UPDATE sandbox_tenants SET version = nextval('sandbox_versions'), ids_count = ids_count + $2, ledger = $3::json WHERE id = $1`,
    [tenant, to - from + 1, JSON.stringify(ledger)],
  );
  await client.query('ANALYZE sandbox_objects');
}

/** Inserts `count` tenant rows copied from the tenant of `publicKey` (idle: no due time), as 30,000 merchants would leave them. */
async function seedTenants(client, publicKey, count) {
  const columns = (
    await client.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'sandbox_tenants' ORDER BY ordinal_position`,
    )
  ).rows.map((r) => r.column_name);
  const made = { id: `'idle_' || n`, version: `nextval('sandbox_versions')`, due_wall_at: 'NULL' };
  await client.query(
    `INSERT INTO sandbox_tenants (${columns.join(', ')}) SELECT ${columns.map((c) => made[c] ?? `t.${c}`).join(', ')}
      FROM sandbox_tenants t, generate_series(1, $2::int) AS n WHERE t.id = $1`,
    [tenantId(publicKey), count],
  );
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User plus system CPU seconds of a process so far, from /proc; 0 once it has exited. */
function cpuSeconds(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The postmaster and its children (backends, writers), whose CPU is the database's share of an idle instance's cost. */
function clusterPids(postmaster) {
  const pids = [postmaster];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) pids.push(Number(entry));
    } catch {
      // Note: it exited while the folder was read.
    }
  }
  return pids;
}

/** Resident set size of a process in bytes, from /proc. */
function rss(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) * 1024;
}

const row = (name, unit, summary, extra = {}) => ({ section: SECTION, name, unit, ...summary, ...extra });
const once = (value) => summarize([value]);

async function throughput(rows, { clusterUrl, settings }) {
  const servers = [];
  try {
    servers.push(await instance('memory', { store: 'memory' }));
    servers.push(await instance('postgres A', { store: 'postgres', databaseUrl: clusterUrl }));
    servers.push(await instance('postgres B', { store: 'postgres', databaseUrl: clusterUrl }));
    const [memory, a, b] = servers;
    const [onMemory, onA, onB] = [await loadTenants(memory, 'm'), await loadTenants(a, 'a'), await loadTenants(b, 'b')];
    const { connections, seconds } = settings;
    const half = Math.max(1, connections >> 1);
    const contenders = {};
    for (const method of ['GET', 'POST']) {
      contenders[`${method} memory`] = () => load(memory.url, { seconds, connections, request: onMemory[method] });
      contenders[`${method} postgres 1`] = () => load(a.url, { seconds, connections, request: onA[method] });
      contenders[`${method} postgres 2`] = async () => {
        const [x, y] = await Promise.all([
          load(a.url, { seconds, connections: half, request: onA[method] }),
          load(b.url, { seconds, connections: connections - half, request: onB[method] }),
        ]);
        return x + y;
      };
    }
    const http = await interleaved(contenders, { runs: settings.loadRuns, warmup: settings.loadWarmup });
    for (const [method, label] of [
      ['GET', 'GET retrieve payment'],
      ['POST', 'POST create payment (new Idempotency-Key each)'],
    ]) {
      const base = http[`${method} memory`];
      rows.push(row(`HTTP ${label}, ${connections} connections: memory store, 1 instance`, 'req/s', base));
      for (const count of [1, 2]) {
        const s = http[`${method} postgres ${count}`];
        const target = method === 'POST' && count === 2 ? { target: '>= 1,000 req/s', met: s.median >= 1000 } : {};
        rows.push(
          row(
            `HTTP ${label}, ${connections} connections: postgres store, ${count} instance${count > 1 ? 's (load split, summed)' : ''}`,
            'req/s',
            s,
            { ratio: s.median / base.median, baseline: 'memory store', ...target },
          ),
        );
      }
    }

    // Note: p50 and p99 of each round's sequential creates; rounds interleave the two stores as every other row does.
    const tails = { memory: [], postgres: [] };
    const latencyOf = (name, server) => async () => {
      const times = await sequentialCreates(server, `pk_latency_${name}`, settings.creates);
      tails[name].push(percentile(times, 99));
      return percentile(times, 50);
    };
    const p50 = await interleaved(
      { memory: latencyOf('memory', memory), postgres: latencyOf('postgres', a) },
      { runs: settings.latencyRuns, warmup: 1 },
    );
    const p99 = Object.fromEntries(Object.entries(tails).map(([name, values]) => [name, summarize(values.slice(1))]));
    for (const [label, s] of [
      ['p50', p50],
      ['p99', p99],
    ]) {
      rows.push(
        row(`sequential create through fetch, ${settings.creates} per round, ${label}: memory store`, 'ms', s.memory),
      );
      rows.push(
        row(
          `sequential create through fetch, ${settings.creates} per round, ${label}: postgres store (durable, fsync on)`,
          'ms',
          s.postgres,
          {
            ratio: s.postgres.median / s.memory.median,
            baseline: 'memory store',
            target: '<= 10 ms',
            met: s.postgres.median <= 10,
          },
        ),
      );
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

async function scale(rows, notes, { clusterUrl, settings }) {
  const url = await database(clusterUrl, 'bench_scale');
  const server = await instance('postgres scale', { store: 'postgres', databaseUrl: url });
  try {
    const tenants = { small: 'pk_scale_small', large: 'pk_scale_large' };
    for (const publicKey of Object.values(tenants)) await create(server, publicKey);
    const seedMs = await timeMs(() =>
      withClient(url, async (client) => {
        await seedPayments(client, tenants.small, 2, SMALL);
        await seedPayments(client, tenants.large, 2, settings.payments);
      }),
    );
    const list = (publicKey) =>
      call(`${server.url}/merchant/v1/payments?limit=20`, { headers: credentials(publicKey) });
    const firstMs = { small: await timeMs(() => list(tenants.small)), large: await timeMs(() => list(tenants.large)) };
    for (const [name, publicKey] of Object.entries(tenants)) {
      const page = await list(publicKey);
      const expected = name === 'small' ? SMALL : settings.payments;
      if (page.data.length !== 20 || page.pagination?.total !== expected)
        throw new Error(
          `${name} tenant: a page of ${page.data.length}, total ${page.pagination?.total}; expected 20 of ${expected}`,
        );
    }
    const perCall = (publicKey) => async () =>
      (await timeMs(async () => {
        for (let i = 0; i < settings.listBatch; i++) await list(publicKey);
      })) / settings.listBatch;
    const latency = await interleaved(
      { small: perCall(tenants.small), large: perCall(tenants.large) },
      { runs: settings.listRuns, warmup: 1 },
    );
    const resident = rss(server.pid);
    const count = settings.payments.toLocaleString('en-US');
    const atTarget = settings.payments === SCALE;
    rows.push(
      row(
        `first GET /merchant/v1/payments?limit=20 after seeding (the instance loads the tenant): ${SMALL.toLocaleString('en-US')} payments`,
        'ms',
        once(firstMs.small),
      ),
    );
    rows.push(
      row(
        `first GET /merchant/v1/payments?limit=20 after seeding (the instance loads the tenant): ${count} payments`,
        'ms',
        once(firstMs.large),
        { ratio: firstMs.large / firstMs.small, baseline: `${SMALL.toLocaleString('en-US')} payments` },
      ),
    );
    rows.push(
      row(
        `GET /merchant/v1/payments?limit=20 (exact total) over HTTP, postgres store: ${SMALL.toLocaleString('en-US')} payments`,
        'ms',
        latency.small,
      ),
    );
    rows.push(
      row(
        `GET /merchant/v1/payments?limit=20 (exact total) over HTTP, postgres store: ${count} payments`,
        'ms',
        latency.large,
        {
          ratio: latency.large.median / latency.small.median,
          baseline: `${SMALL.toLocaleString('en-US')} payments`,
          ...(atTarget ? { target: '<= 2x', met: latency.large.median / latency.small.median <= 2 } : {}),
        },
      ),
    );
    rows.push(
      row(
        `postgres instance RSS after those lists (${count} + ${SMALL.toLocaleString('en-US')} payments in the database)`,
        'MB',
        once(resident / MB),
        atTarget ? { target: '<= 150 MB', met: resident / MB <= 150 } : {},
      ),
    );
    notes.push(
      `Postgres scale: two tenants each given one payment through the API, then copied to ${SMALL.toLocaleString('en-US')} and ${count} payments with INSERT … SELECT … generate_series in ${(seedMs / 1000).toFixed(1)} s (payments only: no timers, events or idempotency records), the tenant rows' version, id count and ledger updated to match.`,
    );
  } catch (error) {
    // Note: a request to an instance that died fails before its exit is seen; give the exit a moment to arrive.
    await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    if (!server.dead()) throw error;
    // Note: an instance that dies under the large tenant (out of memory) is a result of this section, not a broken bench.
    rows.push(
      row(
        `postgres instance with ${settings.payments.toLocaleString('en-US')} payments in one tenant: exited`,
        'MB',
        { median: undefined, min: undefined, max: undefined, runs: 0 },
        { target: '<= 150 MB', met: false },
      ),
    );
    notes.push(`Postgres scale: the instance exited: ${server.output().trim().split('\n').slice(-5).join(' / ')}`);
  } finally {
    await server.stop();
  }
}

async function idle(rows, notes, { clusterUrl, clusterPid, settings }) {
  const url = await database(clusterUrl, 'bench_idle');
  const servers = [];
  try {
    servers.push(await instance('memory idle', { store: 'memory', clock: 'real', idleTenants: IDLE_TENANTS }));
    servers.push(await instance('postgres idle', { store: 'postgres', clock: 'real', databaseUrl: url }));
    const [memory, postgres] = servers;
    await call(`${postgres.url}/merchant/v1/payments?limit=20`, { headers: credentials('pk_idle') });
    await withClient(url, (client) => seedTenants(client, 'pk_idle', IDLE_TENANTS - 1));
    // Note: both are measured over the same window, so that whatever else the machine does hits them alike.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const dbPids = clusterPids(clusterPid);
    const dbSeconds = () => dbPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
    const before = [cpuSeconds(memory.pid), cpuSeconds(postgres.pid), dbSeconds()];
    const window = await timeMs(() => new Promise((resolve) => setTimeout(resolve, settings.idleSeconds * 1000)));
    const after = [cpuSeconds(memory.pid), cpuSeconds(postgres.pid), dbSeconds()];
    const share = after.map((value, i) => Math.round(((value - before[i]) / (window / 1000)) * 10_000) / 100);
    const tenants = IDLE_TENANTS.toLocaleString('en-US');
    rows.push(
      row(
        `CPU of one instance, ${tenants} idle real-clock tenants, ${settings.idleSeconds} s: memory store`,
        '% of a core',
        once(share[0]),
        { target: '< 5 %', met: share[0] < 5 },
      ),
    );
    rows.push(
      row(
        `CPU of one instance, ${tenants} idle real-clock tenants, ${settings.idleSeconds} s: postgres store`,
        '% of a core',
        once(share[1]),
        { target: '< 5 %', met: share[1] < 5 },
      ),
    );
    rows.push(
      row(
        `CPU of the PostgreSQL server over the same window (postmaster and its processes)`,
        '% of a core',
        once(share[2]),
      ),
    );
    notes.push(
      `Postgres idle cost: CPU from /proc/<pid>/stat (${CLOCK_TICKS} ticks a second); the memory store's tenants made through its store API, the postgres store's inserted with SQL from one made through the API.`,
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** Every row of the postgres section, and the notes that say how it ran; none, with a note, without PostgreSQL. */
export async function postgresBench({ quick }) {
  const settings = quick
    ? {
        loadRuns: 1,
        loadWarmup: 0,
        seconds: 1,
        connections: 10,
        creates: 100,
        latencyRuns: 2,
        payments: 10_000,
        listRuns: 3,
        listBatch: 10,
        idleSeconds: 3,
      }
    : {
        loadRuns: 3,
        loadWarmup: 1,
        seconds: 2,
        connections: 10,
        creates: 300,
        latencyRuns: 5,
        payments: SCALE,
        listRuns: 5,
        listBatch: 20,
        idleSeconds: 10,
      };
  if (pgBinaries() === undefined) {
    return {
      rows: [],
      notes: [
        "Postgres: skipped, no PostgreSQL binaries (no /usr/lib/postgresql/<major>/bin/initdb and no PG_BIN); install Debian's postgresql to run it.",
      ],
      settings,
    };
  }
  ensureBuilt();
  const { startCluster } = await tsImport(path.join(root, 'test/postgres/cluster.ts'), import.meta.url);
  const cluster = await startCluster({ fsync: true });
  const rows = [];
  const notes = [
    `Postgres: a throwaway PostgreSQL cluster (fsync on) for the section; instances are scripts/bench/sandbox-postgres-server.mjs (the built dist's openSandbox, contract validation on, manual clock unless said) on the memory or the postgres store. Load: autocannon, ${settings.connections} connections in all, ${settings.seconds} s per sample, requests spread over ${LOAD_TENANTS} tenants per instance; with 2 instances each gets half the connections and tenants of its own.`,
  ];
  try {
    await throughput(rows, { clusterUrl: cluster.url, settings });
    await scale(rows, notes, { clusterUrl: cluster.url, settings });
    await idle(rows, notes, { clusterUrl: cluster.url, clusterPid: cluster.pid, settings });
  } finally {
    await cluster.stop();
  }
  return { rows, notes, settings };
}
