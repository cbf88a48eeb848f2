import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginIdempotent } from '../../packages/sandbox/src/core/idempotency.js';
import {
  addEndpoint,
  advance,
  clockNow,
  createHead,
  execute,
  namedBy,
  type Answer,
  type ClockMode,
  type Command,
  type TenantHead,
  type TenantState,
} from '../../packages/sandbox/src/core/index.js';
import { memoryTenant } from '../../packages/sandbox/src/stores/memory-tenant.js';
import { takeFault } from '../../packages/sandbox/src/control/fault-book.js';
import {
  createPostgresStore,
  MIGRATIONS_TABLE,
  type PostgresStoreOptions,
} from '../../packages/sandbox/src/stores/postgres/index.js';
import {
  WRITES,
  type StoreSession,
  type TenantStore,
  type TransactionIntent,
} from '../../packages/sandbox/src/stores/types.js';
import { freshDatabase } from './database.js';
import { recordingPool } from './recording-pool.js';
import { tenantSummary } from '../sandbox/state-reads.js';

const START = Date.UTC(2026, 0, 1);
const pools: pg.Pool[] = [];
const stores: TenantStore[] = [];
let url: string;

/** A tenant as the sandbox makes it: `real-…` tenants follow the wall clock, others are manual; a small event log for `small-…`. */
function newTenant(id: string): TenantHead {
  const clock: ClockMode = id.startsWith('real') ? 'real' : 'manual';
  return createHead(id, {
    clock,
    start: clock === 'real' ? Date.now() : START,
    seed: 'pg',
    retryCompression: 60,
    eventLogLimit: id.startsWith('small') ? 10 : 10_000,
  });
}

/** A store on `database` (default: the file's), closed after the file. */
async function storeOn(database = url, options: Partial<PostgresStoreOptions> = {}): Promise<TenantStore> {
  const store = await createPostgresStore({ connectionString: database, newTenant, ...options });
  stores.push(store);
  return store;
}

function poolOn(database = url): pg.Pool {
  const pool = new pg.Pool({ connectionString: database });
  pools.push(pool);
  return pool;
}

const body = (amount = '100.00') => ({ amount, currency: 'EUR', requisite: { type: 'card' } }) as never;
const run = <C extends Command>(state: TenantState, command: C) =>
  execute(state, command, clockNow(state.clock, Date.now())).answer;
const okBody = <T>(answer: Answer<T>): T => {
  if (!answer.ok) expect.fail(`expected success, got ${answer.status} ${answer.problem.code}`);
  return answer.body;
};
// Note: the key follows from the state, so that the same steps on two copies of a tenant make the same requests.
const createPayment = (state: TenantState, amount?: string) =>
  okBody(run(state, { type: 'createPayment', idempotency_key: `key-${state.ids.count}`, body: body(amount) }));

beforeAll(async () => {
  url = await freshDatabase();
});

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await Promise.all(pools.map((pool) => pool.end()));
});

describe('createPostgresStore', () => {
  it('migrates an empty database once, recording it in its own table, when several instances start together', async () => {
    const database = await freshDatabase();
    await Promise.all([storeOn(database), storeOn(database), storeOn(database)]);
    await storeOn(database);
    const { rows } = await poolOn(database).query(`SELECT name FROM ${MIGRATIONS_TABLE}`);
    expect(rows.map((row) => row.name)).toEqual([
      '1767225600000_sandbox-tenants',
      '1776000000000_sandbox-idempotency-lease',
      '1780000000000_sandbox-issued-tenants',
      '1780000000001_sandbox-tenant-activity',
      '1790000000000_sandbox-rows',
      '1800000000000_sandbox-test-tenants',
      '1805000000000_sandbox-object-ordinals',
      '1810000000000_sandbox-tenant-count',
    ]);
  });

  it('round-trips a tenant through its lifecycles: a second instance reads what a memory tenant holds after the same steps, bigints included', async () => {
    const steps: ((state: TenantState) => void)[] = [
      (s) => {
        addEndpoint(s, { url: 'http://127.0.0.1:9/hook', secret: 'whsec_dGVzdHNlY3JldA==' }, s.clock.manual);
        for (const amount of ['1000.00', '20.00', '0.10']) createPayment(s, amount);
      },
      (s) => void advance(s, 60, Date.now()),
      (s) => {
        const paid = s.payments.page({ limit: 100, offset: 0 }).at(-1)!.id;
        okBody(
          run(s, {
            type: 'createPayout',
            idempotency_key: 'payout-1',
            body: {
              amount: '10.00',
              currency: 'EUR',
              requisite: { type: 'card', card_number: '4111111111111111' },
            } as never,
          }),
        );
        okBody(
          run(s, {
            type: 'createAppeal',
            idempotency_key: 'appeal-1',
            body: { transaction_id: paid, amount: '5.00', currency: 'EUR' } as never,
          }),
        );
        run(s, { type: 'refundPayment', idempotency_key: 'refund-1', id: paid });
        // Note: a key still in progress (a control call awaiting its advance) expires at Infinity with no answer, leased on the wall clock.
        beginIdempotent(s, 'forceStatus', 'in-progress', 'print', s.time, Date.parse('2026-01-01T00:00:00Z'));
      },
      (s) => void advance(s, 5, Date.now()),
    ];
    const memory = memoryTenant(newTenant('round-trip'));
    const first = await storeOn();
    for (const step of steps) {
      step(memory);
      await first.transaction('round-trip', step);
    }
    const expected = tenantSummary(memory);
    const second = await storeOn();
    expect(await second.transaction('round-trip', tenantSummary)).toEqual(expected);
    expect(expected.objects.payout.total + expected.objects.appeal.total).toBe(2);
    expect(expected.deliveries.length).toBeGreaterThan(0);
    expect(expected.earliestTimer).toBeGreaterThan(0);
    const read = await second.transaction('round-trip', (state) => ({
      available: state.ledger.get('EUR')!.available,
      key: state.idempotency.get('forceStatus\u0000in-progress'),
      frozen: Object.isFrozen(state.payments.get(expected.objects.payment.all[0]!.id)),
    }));
    expect(read.available).toBe(memory.ledger.get('EUR')!.available);
    expect(typeof read.available).toBe('bigint');
    expect(read.key?.expires).toBe(Infinity);
    expect(read.frozen).toBe(true);
    expect(await first.transaction('round-trip', tenantSummary)).toEqual(expected);
  });

  it('keeps the event log and its deliveries within their bound in the database as older changes leave', async () => {
    const store = await storeOn();
    const memory = memoryTenant(newTenant('small-log'));
    const step = (s: TenantState) => {
      if (s.endpoints.length === 0) addEndpoint(s, { url: 'http://127.0.0.1:9/hook' }, s.clock.manual);
      createPayment(s);
      advance(s, 60, Date.now());
    };
    for (let i = 0; i < 12; i++) {
      step(memory);
      await store.transaction('small-log', step);
    }
    expect(memory.eventsDropped).toBeGreaterThan(0);
    const pool = poolOn();
    const count = async (table: string) =>
      Number((await pool.query(`SELECT count(*) FROM ${table} WHERE tenant_id = 'small-log'`)).rows[0].count);
    const expected = tenantSummary(memory);
    expect(await count('sandbox_events')).toBe(expected.events.length);
    expect(await count('sandbox_deliveries')).toBe(expected.deliveries.length);
    expect(await count('sandbox_events')).toBeLessThanOrEqual(10);
    expect(await (await storeOn()).transaction('small-log', tenantSummary)).toEqual(expected);
  });

  it('writes nothing for a transaction that changes nothing, and otherwise only the rows that changed', async () => {
    const store = await storeOn();
    for (let i = 0; i < 5; i++) await store.transaction('minimal', (state) => createPayment(state));
    const pool = poolOn();
    const version = async () =>
      (await pool.query("SELECT version FROM sandbox_tenants WHERE id = 'minimal'")).rows[0].version as string;
    const before = await version();
    await store.transaction('minimal', (state) =>
      okBody(run(state, { type: 'listPayments', limit: 10, offset: 0 } as never)),
    );
    expect(await version()).toBe(before);
    await store.transaction('minimal', (state) => createPayment(state));
    // Note: the rows one transaction wrote carry its transaction id (xmin), the tenant row's included.
    const { rows } = await pool.query(
      "SELECT count(*)::int AS written FROM sandbox_objects WHERE tenant_id = 'minimal' AND xmin = (SELECT xmin FROM sandbox_tenants WHERE id = 'minimal')",
    );
    expect(rows[0].written).toBe(1);
  });

  it("reads a request's tenant with what its command names in one statement, and writes a create in one more", async () => {
    const texts: string[] = [];
    const counting = recordingPool(poolOn(), texts);
    const store = await storeOn(url, { pool: counting });
    const created = await store.transaction('counted', (state) => createPayment(state));
    // A request's transactions: its fault's look (none set), then its command, on one session.
    const request = async <T>(command: Command, work: (state: TenantState) => T, intent?: TransactionIntent) => {
      const session: StoreSession = { reads: namedBy(command) };
      texts.length = 0;
      await store.transaction('counted', (state) => takeFault(state, command.type), session);
      const result = await store.transaction('counted', work, session, intent);
      return { result, statements: texts.map((text) => text.trimStart().slice(0, 4)) };
    };
    const create = { type: 'createPayment', idempotency_key: 'counted-1', body: body() } as const;
    const made = await request(create, (state) => run(state, create), WRITES);
    expect(made.result.ok).toBe(true);
    // A write is never sent on the head the fault's look read, which a command of this instance may have changed
    // since: the create reads afresh, without a lock while no other instance's writes race its tenant's.
    expect(made.statements).toEqual(['SELE', 'SELE', 'WITH']);
    const retrieve = { type: 'retrievePayment', id: created.id } as const;
    const read = await request(retrieve, (state) => run(state, retrieve));
    expect([read.result.ok && read.result.body.id, read.statements]).toEqual([created.id, ['SELE']]);
    const list = { type: 'listPayments', limit: 20, offset: 0 } as const;
    const listed = await request(list, (state) => run(state, list));
    expect([listed.result.ok && listed.result.body.pagination.total, listed.statements]).toEqual([2, ['SELE']]);
  });

  it('commits the due work a list runs first, then pages what it left, once', async () => {
    const store = await storeOn();
    const made = await store.transaction('due-list', (state) => [createPayment(state).id, createPayment(state).id]);
    // Note: the clock is moved without running what fell due, as a real clock moves between two requests.
    await store.transaction('due-list', (state) => void (state.clock.manual += 60_000));
    const version = async () =>
      (await poolOn().query("SELECT version FROM sandbox_tenants WHERE id = 'due-list'")).rows[0].version as string;
    const before = await version();
    const listed = okBody(
      await store.transaction('due-list', (state) =>
        run(state, { type: 'listPayments', status: 'succeeded' } as never),
      ),
    ) as unknown as { data: { id: string }[]; pagination: { total: number } };
    expect([listed.data.map((p) => p.id).sort(), listed.pagination.total]).toEqual([[...made].sort(), 2]);
    expect(Number(await version())).toBeGreaterThan(Number(before));
    // Nothing was left due, and the log holds each payment's two changes once.
    const after = await store.transaction('due-list', tenantSummary);
    expect([after.objects.payment.counts.succeeded, after.events.length]).toEqual([2, 4]);
  });

  it('loses no update when 50 transactions on one tenant run at once across two instances', async () => {
    const [a, b] = [await storeOn(), await storeOn()];
    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? a : b).transaction('contended', (state) => createPayment(state).id),
      ),
    );
    expect(new Set(ids).size).toBe(50);
    for (const store of [a, b]) {
      const listed = await store.transaction('contended', (s) => s.payments.page({ limit: 100, offset: 0 }));
      expect(listed.map((p) => p.id).sort()).toEqual([...ids].sort());
    }
    const keys = await poolOn().query(
      "SELECT count(*)::int AS n FROM sandbox_idempotency WHERE tenant_id = 'contended'",
    );
    expect(keys.rows[0].n).toBe(50);
  });

  it('replays an Idempotency-Key used through another instance, and refuses it with another body', async () => {
    const [a, b] = [await storeOn(), await storeOn()];
    const create = (amount: string) => (state: TenantState) =>
      run(state, { type: 'createPayment', idempotency_key: 'shared-key', body: body(amount) });
    const first = await a.transaction('keys', create('12.00'));
    const replay = await b.transaction('keys', create('12.00'));
    expect(replay).toEqual({ ...first, replayed: true });
    const reused = await b.transaction('keys', create('13.00'));
    expect(reused.ok || reused.problem.code).toBe('idempotency_key_reused');
    expect(await a.transaction('keys', (state) => state.payments.count())).toBe(1);
  });

  it('keeps nothing of a transaction whose work throws, and the next transaction sees the state before it', async () => {
    const [a, b] = [await storeOn(), await storeOn()];
    await a.transaction('throws', (state) => createPayment(state));
    const before = await a.transaction('throws', tenantSummary);
    const failing = a.transaction('throws', (state) => {
      createPayment(state);
      advance(state, 3600, Date.now());
      throw new Error('the work failed');
    });
    await expect(failing).rejects.toThrow('the work failed');
    expect(await a.transaction('throws', tenantSummary)).toEqual(before);
    expect(await b.transaction('throws', tenantSummary)).toEqual(before);
  });

  it('finds through an index the real-clock tenant with something due, among 1,000 idle ones', async () => {
    const database = await freshDatabase();
    const store = await storeOn(database);
    for (let i = 0; i < 1000; i += 50) {
      // Note: idle real clocks have nothing scheduled; manual clocks with payments are never due on the ticker.
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          store.transaction(i + j < 500 ? `real-idle-${i + j}` : `manual-${i + j}`, (state) => {
            if (state.clock.mode === 'manual') createPayment(state);
          }),
        ),
      );
    }
    await store.transaction('real-due', (state) => createPayment(state));
    const wall = Date.now();
    expect(await store.dueTenants(wall - 60_000)).toEqual([]);
    expect(await store.dueTenants(wall + 24 * 3600_000)).toEqual(['real-due']);
    // Note: an advance moves a real clock ahead of the wall clock, so its timers fall due earlier in wall time.
    await store.transaction('real-due', (state) => void (state.clock.offset += 24 * 3600_000));
    expect(await store.dueTenants(wall)).toEqual(['real-due']);
    const pool = poolOn(database);
    await pool.query('ANALYZE sandbox_tenants');
    const plan = (
      await pool.query('EXPLAIN SELECT id FROM sandbox_tenants WHERE due_wall_at <= $1 ORDER BY due_wall_at', [wall])
    ).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('sandbox_tenants_due');
  });

  it('shows a clock advanced through one instance to every other', async () => {
    const [a, b] = [await storeOn(), await storeOn()];
    await b.transaction('clock', () => {});
    await a.transaction('clock', (state) => void advance(state, 120, Date.now()));
    expect(await b.transaction('clock', (state) => state.clock.manual)).toBe(START + 120_000);
    await b.transaction('real-clock', (state) => void advance(state, 30, Date.now()));
    expect(await a.transaction('real-clock', (state) => state.clock.offset)).toBe(30_000);
  });

  it('starts a reset tenant afresh, in every instance', async () => {
    const [a, b] = [await storeOn(), await storeOn()];
    await a.transaction('reset', (state) => createPayment(state));
    expect(await b.transaction('reset', (state) => state.payments.count())).toBe(1);
    await b.reset('reset');
    expect(await a.transaction('reset', tenantSummary)).toEqual(tenantSummary(memoryTenant(newTenant('reset'))));
  });
});
