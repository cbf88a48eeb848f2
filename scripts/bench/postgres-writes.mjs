// The postgres section's rows on writes and pages that issue 40 sets targets for: one hot tenant's creates against the
// same clients spread over 16 tenants (creates a second and write attempts per create, from pg_stat_statements), new
// tenants a second at a small and a large store (admission), and a deep list page against the first.
import {
  bounded,
  call,
  create,
  credentials,
  hammer,
  instance,
  loadTenants,
  percentile,
  rotating,
} from './postgres-http.mjs';
import { count, once, rounded, row } from './postgres-rows.mjs';
import { database, seedIdleTenants, withClient } from './postgres-seed.mjs';
import { interleaved, summarize } from './stats.mjs';

/** The clients of the hot-tenant and admission rows, split evenly over two instances. */
const CLIENTS = 16;
/** The start of the statement that writes a tenant's head, whose calls are the write attempts. */
const WRITE = 'WITH head AS (UPDATE sandbox_tenants';
const WRITE_CALLS = `SELECT coalesce(sum(calls), 0)::bigint AS calls FROM pg_stat_statements
  WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND starts_with(query, $1)`;

/** `request` on both instances at once, half the clients on each, for `seconds`; the 2xx answers a second, their count and failures. */
async function onBoth([a, b], { seconds, requests }) {
  const half = CLIENTS / 2;
  const runs = await Promise.all(
    [a, b].map((server, i) => hammer(server.url, { seconds, connections: half, request: requests[i], failures: true })),
  );
  return {
    perSecond: runs[0].perSecond + runs[1].perSecond,
    made: runs[0].count + runs[1].count,
    failed: runs[0].failed + runs[1].failed,
  };
}

/**
 * The hot-tenant rows, on the load rows' two postgres instances (database `postgres` of the cluster, whose server
 * preloads pg_stat_statements): 16 clients creating in one tenant, against the same clients over 16 tenants.
 */
export async function hotTenantRows(rows, notes, { servers, clusterUrl, settings }) {
  const seconds = settings.hotSeconds;
  await withClient(clusterUrl, (client) => client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements'));
  const hot = rotating([{ publicKey: 'pk_hot', paymentId: (await create(servers[0], 'pk_hot')).data.id }]);
  const spread = [
    await loadTenants(servers[0], 'spread_a', CLIENTS / 2),
    await loadTenants(servers[1], 'spread_b', CLIENTS / 2),
  ];
  const attempts = { hot: [], spread: [] };
  const failed = { hot: 0, spread: 0 };
  const sample = (name, requests) => () =>
    withClient(clusterUrl, async (client) => {
      await client.query('SELECT pg_stat_statements_reset()');
      const run = await onBoth(servers, { seconds, requests });
      const { rows: counted } = await client.query(WRITE_CALLS, [WRITE]);
      attempts[name].push(Number(counted[0].calls) / run.made);
      failed[name] += run.failed;
      return run.perSecond;
    });
  const rate = await interleaved(
    { hot: sample('hot', [hot.POST, hot.POST]), spread: sample('spread', [spread[0].POST, spread[1].POST]) },
    { runs: settings.hotRuns, warmup: 1 },
  );
  // Note: `interleaved` keeps no sample of its unrecorded round; these lists hold that round's too, first.
  const recorded = (values) => rounded(summarize(values.slice(-settings.hotRuns)), 2);
  const name = `One hot tenant: HTTP POST create, ${CLIENTS} connections over 2 postgres instances, ${seconds} s a sample`;
  rows.push(row(`${name}: spread over ${CLIENTS} tenants`, 'req/s', rate.spread));
  const ratio = rate.hot.median / rate.spread.median;
  rows.push(
    row(`${name}: all in one tenant`, 'req/s', rate.hot, {
      ratio,
      baseline: `spread over ${CLIENTS} tenants`,
      target: '>= 0.8x',
      met: ratio >= 0.8,
    }),
  );
  const per = `One hot tenant: write attempts per create (pg_stat_statements calls of "${WRITE} …" / 2xx creates)`;
  const perCreate = recorded(attempts.hot);
  rows.push(row(`${per}: spread over ${CLIENTS} tenants`, 'attempts', recorded(attempts.spread)));
  rows.push(
    row(`${per}: all in one tenant`, 'attempts', perCreate, {
      target: '<= 1.2',
      met: perCreate.median > 0 && perCreate.median <= 1.2,
    }),
  );
  notes.push(
    `Postgres hot tenant: autocannon, ${CLIENTS / 2} connections on each of two instances, creates in one tenant or rotating over ${CLIENTS / 2} tenants per instance, interleaved, one unrecorded round first; the cluster preloads pg_stat_statements, reset before each sample. Attempts per create in one tenant, every round's: ${attempts.hot.map((a) => a.toFixed(2)).join(', ')}; ${failed.hot + failed.spread} creates failed (${failed.hot} in one tenant). An attempt count of 0 means no statement starting "${WRITE}" ran: the store's write statement has another shape, and the row needs another query.`,
  );
}

/** Requests with new credentials each, numbered under `label` (one an instance), so that every request makes a tenant. */
function newcomers(label) {
  let n = 0;
  return {
    method: 'GET',
    path: '/merchant/v1/balance',
    setupRequest: (request) => ({ ...request, headers: credentials(`pk_new_${label}_${n++}`) }),
  };
}

/** The admission rows: new tenants a second in open mode at a small and at a large store, on database bench_admit. */
export async function admissionRows(rows, notes, { clusterUrl, settings }) {
  const { admitSmall: small, admitLarge: large, admitSeconds: seconds } = settings;
  const url = await database(clusterUrl, 'bench_admit');
  const bound = 10 * large;
  const servers = [];
  try {
    for (const name of ['admit A', 'admit B'])
      servers.push(await instance(name, { store: 'postgres', databaseUrl: url, maxTenants: bound }));
    await call(`${servers[0].url}/merchant/v1/balance`, { headers: credentials('pk_admit_template') });
    const seed = (n, first) => withClient(url, (client) => seedIdleTenants(client, 'pk_admit_template', n, first));
    // Note: one unrecorded run first, as every contender of the bench gets, so that neither size pays the instances'
    // warm-up; the tenants it makes count toward the small store.
    const warm = await onBoth(servers, { seconds, requests: [newcomers('warm_a'), newcomers('warm_b')] });
    await seed(Math.max(0, small - 1 - warm.made), 1);
    const atSmall = await onBoth(servers, { seconds, requests: [newcomers('small_a'), newcomers('small_b')] });
    // Note: not interleaved: the large store is the small one seeded further, which cannot be undone in a round.
    await seed(large - small, small);
    const atLarge = await onBoth(servers, { seconds, requests: [newcomers('large_a'), newcomers('large_b')] });
    const name = (n) =>
      `Admission: new tenants a second (GET /merchant/v1/balance, new credentials each), ${CLIENTS} connections over 2 instances, open mode: ${count(n)} tenants in the store`;
    rows.push(
      row(name(small), 'tenants/s', rounded(once(atSmall.perSecond)), {
        target: '>= 300/s',
        met: atSmall.perSecond >= 300,
      }),
    );
    const ratio = atLarge.perSecond / atSmall.perSecond;
    rows.push(
      row(name(large), 'tenants/s', rounded(once(atLarge.perSecond)), {
        ratio,
        baseline: `${count(small)} tenants`,
        target: '>= 300/s and 0.8x to 1.25x',
        met: atLarge.perSecond >= 300 && Math.min(ratio, 1 / ratio) >= 0.8,
      }),
    );
    notes.push(
      `Postgres admission: two instances with tenants.max ${count(bound)}; the store's tenants copied with SQL from one made through the API, ${count(small)} then ${count(large)}; one unrecorded ${seconds} s autocannon run (${count(warm.made)} tenants, counted in the small store when it holds no more), then one at each size, in that order (${count(atSmall.made + atLarge.made)} tenants made, ${atSmall.failed + atLarge.failed} requests failed).`,
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/**
 * The deep-page rows, on the scale rows' instance and large tenant: the p50 of a page at 90 % of its payments against
 * the p50 of its first page, interleaved; a refused page makes a missed row and a note, not a broken section.
 */
export async function deepPageRows(rows, notes, { server, publicKey, payments, settings, atScale }) {
  const offset = Math.round(payments * 0.9);
  const p50 = (query) => async () => {
    const times = await bounded({ count: settings.listBatch, budgetMs: settings.listBudgetMs }, async () => {
      const body = await call(`${server.url}/merchant/v1/payments?limit=20${query}`, {
        headers: credentials(publicKey),
      });
      if (body.data?.length !== 20) throw new Error(`${query || 'first page'}: a page of ${body.data?.length}`);
    });
    return percentile(times, 50);
  };
  const name = `GET /merchant/v1/payments?limit=20 of a ${count(payments)}-payment tenant, p50 of each round`;
  let pages;
  try {
    pages = await interleaved({ first: p50(''), deep: p50(`&offset=${offset}`) }, { runs: settings.deepRuns });
  } catch (error) {
    const none = { median: undefined, min: undefined, max: undefined, runs: 0 };
    rows.push(row(`${name}: offset ${count(offset)}`, 'ms', none, { target: '<= 3x the first page', met: false }));
    notes.push(`Postgres deep page: ${error.message.slice(0, 300)}`);
    return;
  }
  rows.push(row(`${name}: the first page`, 'ms', pages.first));
  const ratio = pages.deep.median / pages.first.median;
  rows.push(
    row(`${name}: offset ${count(offset)}`, 'ms', pages.deep, {
      ratio,
      baseline: 'the first page',
      ...(atScale ? { target: '<= 3x', met: ratio <= 3 } : {}),
    }),
  );
}
