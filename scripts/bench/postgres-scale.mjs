// The postgres section's scale rows, on database bench_scale with tenants seeded by SQL (postgres-seed.mjs): the first
// list page (exact total) at a large tenant against a small one, the first page on an instance that never served the
// tenant, an instance's RSS after those lists and after touching thousands of tenants of 100 payments each, and the
// GET latency of one tenant while another, large one sends GETs to the same instance (the noisy neighbour), and while a
// small one sends the same GETs.
import { bounded, call, create, credentials, instance, percentile } from './postgres-http.mjs';
import { count, MB, once, row } from './postgres-rows.mjs';
import { copyTenant, database, seedPayments, seededPaymentId, withClient } from './postgres-seed.mjs';
import { rss } from './proc.mjs';
import { interleaved, timeMs } from './stats.mjs';
import { deepPageRows } from './postgres-writes.mjs';

/** The small tenant the large one's page is held against, and the size of each touched tenant. */
const SMALL = 1_000;
const TOUCHED_PAYMENTS = 100;
const KEYS = {
  small: 'pk_scale_small',
  large: 'pk_scale_large',
  noisy: 'pk_scale_noisy',
  peer: 'pk_scale_peer',
  template: 'pk_touch_template',
  warm: 'pk_scale_warm',
};
/** The one secret key of every touched tenant: each is a copy of the template tenant, whose digest it carries. */
const TOUCH_SECRET = `sk_${KEYS.template}`;
const touchKey = (i) => `pk_touch_${i}`;

const page = (server, publicKey, secretKey, query = '') =>
  call(`${server.url}/merchant/v1/payments?limit=20${query}`, { headers: credentials(publicKey, secretKey) });

/** Throws unless `body` is a first page of 20 payments with `total` as its exact total. */
function expectPage(body, total, who) {
  if (body.data?.length !== 20 || body.pagination?.total !== total)
    throw new Error(`${who}: a page of ${body.data?.length}, total ${body.pagination?.total}; expected 20 of ${total}`);
}

/** A row saying the instance died (out of memory, say) under a tenant: a result of the section, not a broken bench. */
async function diedOr(server, rows, notes, error) {
  // Note: a request to an instance that died fails before its exit is seen; give the exit a moment to arrive.
  await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
  if (!server.dead()) throw error;
  rows.push(
    row(
      `${server.name} instance: exited`,
      'MB',
      { median: undefined, min: undefined, max: undefined, runs: 0 },
      { target: 'stays up', met: false },
    ),
  );
  notes.push(`Postgres scale: ${server.name} exited: ${server.output().trim().split('\n').slice(-5).join(' / ')}`);
}

/** GETs `touched` tenants, one list page each, from `connections` clients at once, until all are done or the budget is spent. */
async function touch(server, { tenants, connections, budgetMs }) {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < tenants && performance.now() - started < budgetMs) {
      const i = next++;
      expectPage(await page(server, touchKey(i), TOUCH_SECRET), TOUCHED_PAYMENTS, touchKey(i));
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { touched: next, ms: performance.now() - started };
}

async function lists(rows, notes, { url, settings, atScale }) {
  const server = await instance('postgres lists', { store: 'postgres', databaseUrl: url });
  try {
    // Note: a tenant never seeded goes first, so that the large tenant's first page finds the pool connected and the
    // code loaded, and measures only what the instance does for a tenant it never served.
    await page(server, KEYS.warm);
    let first;
    const firstMs = await timeMs(async () => (first = await page(server, KEYS.large)));
    expectPage(first, settings.payments, 'large tenant');
    expectPage(await page(server, KEYS.small), SMALL, 'small tenant');
    const perCall = (publicKey) => async () => {
      const times = await bounded({ count: settings.listBatch, budgetMs: settings.listBudgetMs }, () =>
        page(server, publicKey),
      );
      return times.reduce((sum, t) => sum + t, 0) / times.length;
    };
    const latency = await interleaved(
      { small: perCall(KEYS.small), large: perCall(KEYS.large) },
      { runs: settings.listRuns, warmup: 1 },
    );
    const afterLists = rss(server.pid) / MB;
    // Note: after the RSS reading, which is about first pages; before touching, whose row reads the RSS again.
    await deepPageRows(rows, notes, { server, publicKey: KEYS.large, payments: settings.payments, settings, atScale });
    const touched = await touch(server, {
      tenants: settings.touchTenants,
      connections: settings.connections,
      budgetMs: settings.touchBudgetMs,
    });
    const afterTouching = rss(server.pid) / MB;

    const large = count(settings.payments);
    const ratio = latency.large.median / latency.small.median;
    const name = (n) =>
      `GET /merchant/v1/payments?limit=20 (the first page, exact total), postgres store: ${n} payments`;
    rows.push(row(name(count(SMALL)), 'ms', latency.small));
    rows.push(
      row(name(large), 'ms', latency.large, {
        ratio,
        baseline: `${count(SMALL)} payments`,
        ...(atScale ? { target: '<= 1.5x', met: ratio <= 1.5 } : {}),
      }),
    );
    rows.push(
      row(
        `first GET /merchant/v1/payments?limit=20 of a ${large}-payment tenant on an instance that never served it`,
        'ms',
        once(firstMs),
        atScale ? { target: '< 100 ms', met: firstMs < 100 } : {},
      ),
    );
    rows.push(
      row(`postgres instance RSS after those lists (${large} + ${count(SMALL)} payments)`, 'MB', once(afterLists), {
        ...(atScale ? { target: '<= 150 MB', met: afterLists <= 150 } : {}),
      }),
    );
    const all = touched.touched === settings.touchTenants;
    rows.push(
      row(
        `the same instance's RSS after touching ${count(touched.touched)}${all ? '' : ` of ${count(settings.touchTenants)}`} tenants of ${TOUCHED_PAYMENTS} payments (one list page each)`,
        'MB',
        once(afterTouching),
        atScale ? { target: '<= 150 MB', met: all && afterTouching <= 150 } : {},
      ),
    );
    notes.push(
      `Postgres touch: ${count(touched.touched)} tenants got one list page each from ${settings.connections} clients in ${(touched.ms / 1000).toFixed(1)} s${all ? '' : `, when the budget of ${settings.touchBudgetMs / 1000} s ran out`}.`,
    );
  } catch (error) {
    await diedOr(server, rows, notes, error);
  } finally {
    await server.stop();
  }
}

/** The pages the noisy clients' list requests spread over: the first ones, which the store must keep fast at any size. */
const NOISY_PAGES = 50;

/**
 * The clients of the tenant of `publicKey` (`payments` seeded), each sending one GET after another until stop() is
 * called: a list page at an offset among its first pages, then a retrieve of one of all its payments. stop() resolves,
 * once every client's last request is answered, to the requests answered and those that failed.
 */
function noise(server, { publicKey, payments, clients }) {
  let stopped = false;
  const sent = { ok: 0, failed: 0 };
  const pages = Math.max(1, Math.min(NOISY_PAGES, Math.floor(payments / 20)));
  const client = async (c) => {
    for (let i = c; !stopped; i += clients) {
      // Note: fixed strides, so that every round asks for the same pages and payments in the same order.
      const path =
        i % 2 === 0
          ? `/merchant/v1/payments?limit=20&offset=${((i * 7919) % pages) * 20}`
          : `/merchant/v1/payments/${seededPaymentId(2 + ((i * 104_729) % (payments - 1)))}`;
      try {
        await call(`${server.url}${path}`, { headers: credentials(publicKey) });
        sent.ok++;
      } catch {
        // Note: counted, not thrown: a store that drops a busy tenant's connections is a result, told in the notes.
        sent.failed++;
      }
    }
  };
  const running = Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
  return async () => {
    stopped = true;
    await running;
    return sent;
  };
}

async function noisyNeighbour(rows, notes, { url, settings }) {
  const server = await instance('postgres neighbours', { store: 'postgres', databaseUrl: url });
  try {
    const quiet = async () => {
      const times = await bounded({ count: settings.quietRequests, budgetMs: settings.quietBudgetMs }, () =>
        call(`${server.url}/merchant/v1/balance`, { headers: credentials(KEYS.small) }),
      );
      return percentile(times, 50);
    };
    const sent = { ok: 0, failed: 0 };
    const beside = (publicKey, payments) => async () => {
      const stop = noise(server, { publicKey, payments, clients: settings.noisyClients });
      // Note: the noisy clients' first requests are under way before the quiet tenant's are timed.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const median = await quiet();
      const { ok, failed } = await stop();
      sent.ok += ok;
      sent.failed += failed;
      return median;
    };
    const p50 = await interleaved(
      { alone: quiet, peer: beside(KEYS.peer, SMALL), noisy: beside(KEYS.noisy, settings.noisyPayments) },
      { runs: settings.noisyRuns, warmup: 1 },
    );
    const name = `GET /merchant/v1/balance p50 of a ${count(SMALL)}-payment tenant, one request after another`;
    const sending = (payments) =>
      `while a ${count(payments)}-payment tenant sends GETs from ${settings.noisyClients} clients`;
    rows.push(row(`${name}: alone on the instance`, 'ms', p50.alone));
    rows.push(
      row(`${name}: ${sending(SMALL)} (the same load from a small tenant)`, 'ms', p50.peer, {
        ratio: p50.peer.median / p50.alone.median,
        baseline: 'alone',
      }),
    );
    const ratio = p50.noisy.median / p50.alone.median;
    rows.push(
      row(`${name}: ${sending(settings.noisyPayments)}`, 'ms', p50.noisy, {
        ratio,
        baseline: 'alone',
        target: '<= 1.5x',
        met: ratio <= 1.5,
      }),
    );
    notes.push(
      `Postgres noisy neighbour: each of the busy tenant's ${settings.noisyClients} clients sends, one request after another, a list page among its first ${NOISY_PAGES} and a retrieve of any of its payments; ${count(sent.ok)} answered${sent.failed ? `, ${count(sent.failed)} failed` : ''} over the rounds. The same load from a ${count(SMALL)}-payment tenant tells what sharing the instance and the two cores costs whatever the busy tenant's size.`,
    );
  } catch (error) {
    await diedOr(server, rows, notes, error);
  } finally {
    await server.stop();
  }
}

/** The scale rows, on database bench_scale of the cluster. */
export async function scaleRows(rows, notes, { clusterUrl, settings, atScale }) {
  const url = await database(clusterUrl, 'bench_scale');
  // Note: an instance migrates the new database and makes each seeded tenant's one payment, which SQL then copies.
  const maker = await instance('postgres maker', { store: 'postgres', databaseUrl: url });
  try {
    for (const key of [KEYS.small, KEYS.large, KEYS.noisy, KEYS.peer, KEYS.template]) await create(maker, key);
  } finally {
    await maker.stop();
  }
  // Note: two sessions, one per core, since seeding is the phase's longest step and PostgreSQL's CPU bounds it.
  const seedMs = await timeMs(() =>
    Promise.all([
      withClient(url, async (client) => {
        await seedPayments(client, KEYS.small, SMALL);
        await seedPayments(client, KEYS.large, settings.payments);
      }),
      withClient(url, async (client) => {
        await seedPayments(client, KEYS.noisy, settings.noisyPayments);
        await seedPayments(client, KEYS.peer, SMALL);
        await seedPayments(client, KEYS.template, TOUCHED_PAYMENTS);
        const touched = Array.from({ length: settings.touchTenants }, (_, i) => touchKey(i));
        await copyTenant(client, KEYS.template, touched);
      }),
    ]),
  );
  notes.push(
    `Postgres scale: tenants of ${[SMALL, SMALL, settings.payments, settings.noisyPayments].map(count).join(', ')} payments, each given one payment through the API and copied with INSERT … SELECT … generate_series, and ${count(settings.touchTenants)} copies of a tenant of ${TOUCHED_PAYMENTS} payments, seeded in ${(seedMs / 1000).toFixed(1)} s (payments only: no timers, events or idempotency records), their tenant rows' id count, ledger and exact totals set to match.`,
  );
  await lists(rows, notes, { url, settings, atScale });
  await noisyNeighbour(rows, notes, { url, settings });
}
