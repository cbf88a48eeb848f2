// The postgres section's load rows: pgbench's create-shaped commits (the physical limit), creates and retrieves a
// second over HTTP on the memory store and on one and two postgres instances, the latency of a sequential durable
// create, and the CPU a create costs the instance and PostgreSQL; all on the cluster's `postgres` database but pgbench,
// which has a scratch database of its own, and interleaved round by round so that drift hits every contender alike.
import { pgbench, PGBENCH_SHAPE } from './pgbench.mjs';
import { create, hammer, instance, loadTenants, percentile } from './postgres-http.mjs';
import { count, rounded, row } from './postgres-rows.mjs';
import { walPosition, withClient } from './postgres-seed.mjs';
import { hotTenantRows } from './postgres-writes.mjs';
import { clusterCpuSeconds, cpuSeconds } from './proc.mjs';
import { interleaved, summarize, timeMs } from './stats.mjs';

/** Tenants each instance's load spreads its requests over, so that the load is many merchants', not one serialised tenant's. */
export const LOAD_TENANTS = 10;

/** The samples of the recorded rounds: `interleaved` runs `warmup` rounds first and keeps nothing of them. */
const recorded = (values, warmup) => summarize(values.slice(warmup));

/** `fn()`'s result and the WAL bytes the cluster wrote meanwhile, read through `client`. */
async function withWal(client, fn) {
  const before = await walPosition(client);
  const result = await fn();
  return { result, wal: (await walPosition(client)) - before };
}

/**
 * The throughput rows; resolves to pgbench's PostgreSQL CPU and WAL bytes per commit (their summaries), which the
 * cost-per-create rows are held against.
 */
async function throughput(rows, notes, { servers, tenants, clusterUrl, clusterPid, settings, wal }) {
  const { connections, seconds, loadRuns: runs, loadWarmup: warmup } = settings;
  const limit = await pgbench(clusterUrl, { clients: connections, threads: 2, tenants: 2 * LOAD_TENANTS });
  try {
    const pg = { latency: [], cpu: [], wal: [] };
    const createWal = [];
    const [memory, a, b] = servers;
    const half = Math.max(1, connections >> 1);
    const contenders = {
      pgbench: async () => {
        const before = clusterCpuSeconds(clusterPid);
        const { result: sample, wal: bytes } = await withWal(wal, () => limit.sample(seconds));
        pg.cpu.push(((clusterCpuSeconds(clusterPid) - before) * 1000) / sample.commits);
        pg.wal.push(bytes / sample.commits);
        pg.latency.push(sample.latencyMs);
        return sample.commitsPerSecond;
      },
    };
    for (const method of ['GET', 'POST']) {
      contenders[`${method} memory`] = async () =>
        (await hammer(memory.url, { seconds, connections, request: tenants.memory[method] })).perSecond;
      contenders[`${method} postgres 1`] = async () =>
        (await hammer(a.url, { seconds, connections, request: tenants.a[method] })).perSecond;
      contenders[`${method} postgres 2`] = async () => {
        const { result: runs, wal: bytes } = await withWal(wal, () =>
          Promise.all([
            hammer(a.url, { seconds, connections: half, request: tenants.a[method] }),
            hammer(b.url, { seconds, connections: connections - half, request: tenants.b[method] }),
          ]),
        );
        const [x, y] = runs;
        if (method === 'POST') createWal.push(bytes / (x.count + y.count));
        return x.perSecond + y.perSecond;
      };
    }
    const http = await interleaved(contenders, { runs, warmup });
    const limitName = `pgbench (the physical limit): one-statement create-shaped transaction, ${connections} clients, fsync on`;
    rows.push(row(`${limitName}: commits a second`, 'commits/s', rounded(http.pgbench)));
    rows.push(row(`${limitName}: latency average`, 'ms', recorded(pg.latency, warmup)));
    const limits = { cpu: recorded(pg.cpu, warmup), wal: recorded(pg.wal, warmup) };
    rows.push(row(`${limitName}: PostgreSQL CPU per commit`, 'ms', limits.cpu));
    rows.push(row(`${limitName}: WAL per commit`, 'B', rounded(limits.wal)));
    const perInstances = (n) => (n === 1 ? '1 instance' : `${n} instances (load split, summed)`);
    for (const [method, label] of [
      ['GET', 'GET retrieve payment'],
      ['POST', 'POST create payment (new Idempotency-Key each)'],
    ]) {
      const base = http[`${method} memory`];
      const name = (store) => `HTTP ${label}, ${connections} connections: ${store}`;
      rows.push(row(name('memory store, 1 instance'), 'req/s', base));
      for (const n of [1, 2]) {
        const s = http[`${method} postgres ${n}`];
        const vsMemory = { ratio: s.median / base.median, baseline: 'memory store' };
        let extra = vsMemory;
        if (method === 'GET' && n === 1)
          extra = { ...vsMemory, target: '>= 0.4x memory store', met: s.median / base.median >= 0.4 };
        if (method === 'POST' && n === 2) {
          const ratio = s.median / http.pgbench.median;
          extra = {
            ratio,
            baseline: 'pgbench',
            target: '>= 1,500 req/s and >= 0.3x pgbench',
            met: s.median >= 1500 && ratio >= 0.3,
          };
        }
        rows.push(row(name(`postgres store, ${perInstances(n)}`), 'req/s', s, extra));
      }
    }
    const perCreate = rounded(recorded(createWal, warmup));
    const walRatio = perCreate.median / limits.wal.median;
    rows.push(
      row(`HTTP POST create, ${connections} connections, postgres store, 2 instances: WAL per create`, 'B', perCreate, {
        ratio: walRatio,
        baseline: 'pgbench per commit',
        target: '<= 2x pgbench',
        met: walRatio <= 2,
      }),
    );
    notes.push(
      `Postgres limit: pgbench -c ${connections} -j 2 -T ${seconds} -n -M extended on a scratch database of the section's cluster, ${PGBENCH_SHAPE}, over ${2 * LOAD_TENANTS} tenant rows; its CPU is the cluster's (postmaster, its processes and those it reaped, from /proc) over the run, its WAL the cluster's pg_current_wal_lsn() before and after, as the creates' WAL is.`,
    );
    return limits;
  } finally {
    await limit.close();
  }
}

async function sequential(rows, { servers: [memory, postgres], settings }) {
  // Note: p50 and p99 of each round's sequential creates; rounds interleave the two stores as every other row does.
  const tails = { memory: [], postgres: [] };
  const latencyOf = (name, server) => async () => {
    const times = [];
    for (let i = 0; i < settings.creates; i++) times.push(await timeMs(() => create(server, `pk_latency_${name}`)));
    tails[name].push(percentile(times, 99));
    return percentile(times, 50);
  };
  const p50 = await interleaved(
    { memory: latencyOf('memory', memory), postgres: latencyOf('postgres', postgres) },
    { runs: settings.latencyRuns, warmup: 1 },
  );
  const p99 = Object.fromEntries(Object.entries(tails).map(([name, values]) => [name, recorded(values, 1)]));
  for (const [label, s, goal] of [
    ['p50', p50, 2],
    ['p99', p99, 8],
  ]) {
    const name = `sequential create through fetch, ${settings.creates} per round, ${label}`;
    rows.push(row(`${name}: memory store`, 'ms', s.memory));
    rows.push(
      row(`${name}: postgres store (durable, fsync on)`, 'ms', s.postgres, {
        ratio: s.postgres.median / s.memory.median,
        baseline: 'memory store',
        target: `<= ${goal} ms`,
        met: s.postgres.median <= goal,
      }),
    );
  }
}

async function cpuPerCreate(rows, notes, { servers: [memory, postgres], tenants, clusterPid, settings, limits }) {
  const { cpuCreates: amount, connections } = settings;
  const split = { instance: [], database: [] };
  const contenders = {
    memory: async () => {
      const before = cpuSeconds(memory.pid);
      const { count: made } = await hammer(memory.url, { amount, connections, request: tenants.memory.POST });
      return ((cpuSeconds(memory.pid) - before) * 1000) / made;
    },
    postgres: async () => {
      const before = [cpuSeconds(postgres.pid), clusterCpuSeconds(clusterPid)];
      const { count: made } = await hammer(postgres.url, { amount, connections, request: tenants.a.POST });
      const [instanceMs, databaseMs] = [cpuSeconds(postgres.pid), clusterCpuSeconds(clusterPid)].map(
        (after, i) => ((after - before[i]) * 1000) / made,
      );
      split.instance.push(instanceMs);
      split.database.push(databaseMs);
      return instanceMs + databaseMs;
    },
  };
  const cpu = await interleaved(contenders, { runs: settings.cpuRuns, warmup: 1 });
  const name = `CPU per HTTP create, ${count(amount)} creates over ${connections} connections`;
  rows.push(row(`${name}: memory store, the instance`, 'ms', cpu.memory));
  rows.push(
    row(`${name}: postgres store, the instance plus PostgreSQL`, 'ms', cpu.postgres, {
      ratio: cpu.postgres.median / cpu.memory.median,
      baseline: 'memory store',
      target: '<= 2.5 ms',
      met: cpu.postgres.median <= 2.5,
    }),
  );
  rows.push(row(`${name}: postgres store, the instance's share`, 'ms', recorded(split.instance, 1)));
  const database = recorded(split.database, 1);
  const ratio = database.median / limits.cpu.median;
  rows.push(
    row(`${name}: postgres store, PostgreSQL's share`, 'ms', database, {
      ratio,
      baseline: 'pgbench CPU per commit',
      target: '<= 2x pgbench',
      met: ratio <= 2,
    }),
  );
  notes.push(
    `Postgres CPU per create: user plus system time from /proc/<pid>/stat before and after a fixed number of creates (autocannon's own CPU is the bench's, not counted); PostgreSQL's is the postmaster's, its live processes' and those it reaped.`,
  );
}

/** The load rows, on a memory instance and two postgres instances of the cluster's `postgres` database. */
export async function loadRows(rows, notes, { clusterUrl, clusterPid, settings }) {
  const servers = [];
  try {
    servers.push(await instance('memory', { store: 'memory' }));
    servers.push(await instance('postgres A', { store: 'postgres', databaseUrl: clusterUrl }));
    servers.push(await instance('postgres B', { store: 'postgres', databaseUrl: clusterUrl }));
    const [memory, a, b] = servers;
    const tenants = {
      memory: await loadTenants(memory, 'm', LOAD_TENANTS),
      a: await loadTenants(a, 'a', LOAD_TENANTS),
      b: await loadTenants(b, 'b', LOAD_TENANTS),
    };
    const limits = await withClient(clusterUrl, (wal) =>
      throughput(rows, notes, { servers, tenants, clusterUrl, clusterPid, settings, wal }),
    );
    await sequential(rows, { servers: [memory, a], settings });
    await cpuPerCreate(rows, notes, { servers: [memory, a], tenants, clusterPid, settings, limits });
    await hotTenantRows(rows, notes, { servers: [a, b], clusterUrl, settings });
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
