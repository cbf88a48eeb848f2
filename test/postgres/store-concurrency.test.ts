// The postgres store under a merchant's own parallel suite and deep pages: a tenant's writers queue on its row instead
// of racing, a write sets only the head's columns it changed, and a page at any offset reads only its own rows.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clockNow,
  createHead,
  execute,
  type Answer,
  type Command,
  type TenantHead,
  type TenantState,
} from '../../packages/sandbox/src/core/index.js';
import { rowsFrom } from '../../packages/contract/src/sandbox-model/lifecycle.js';
import { MAX_BATCH } from '../../packages/sandbox/src/stores/postgres/batch.js';
import { createPostgresStore } from '../../packages/sandbox/src/stores/postgres/index.js';
import { readStatement, type Read } from '../../packages/sandbox/src/stores/postgres/sql/reads.js';
import { WRITES, type TenantStore } from '../../packages/sandbox/src/stores/types.js';
import { freshDatabase } from './database.js';
import { recordingPool } from './recording-pool.js';

const START = Date.UTC(2026, 0, 1);
const pools: pg.Pool[] = [];
const stores: TenantStore[] = [];
let url: string;

const newTenant = (id: string): TenantHead =>
  createHead(id, { clock: 'manual', start: START, seed: 'pg', retryCompression: 60, eventLogLimit: 10_000 });

const body = { amount: '10.00', currency: 'EUR', requisite: { type: 'card' } } as never;
const run = <C extends Command>(state: TenantState, command: C) =>
  execute(state, command, clockNow(state.clock, Date.now())).answer;
const okBody = <T>(answer: Answer<T>): T => {
  if (!answer.ok) expect.fail(`expected success, got ${answer.status} ${answer.problem.code}`);
  return answer.body;
};
const createPayment = (state: TenantState, key: string) =>
  okBody(run(state, { type: 'createPayment', idempotency_key: key, body }));

function poolOn(): pg.Pool {
  const pool = new pg.Pool({ connectionString: url });
  pools.push(pool);
  return pool;
}

/** A store whose every statement's text (on the pool and on its clients) is recorded in `texts`. */
async function recordingStore(texts: string[]): Promise<TenantStore> {
  const store = await createPostgresStore({ pool: recordingPool(poolOn(), texts), newTenant });
  stores.push(store);
  return store;
}

const writesOf = (texts: string[]) => texts.filter((text) => text.startsWith('WITH head AS (UPDATE sandbox_tenants'));

beforeAll(async () => {
  url = await freshDatabase();
});

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await Promise.all(pools.map((pool) => pool.end()));
});

describe('the postgres store with many writers on one tenant', () => {
  it('queues two instances’ creates on one tenant on its row once they race: at most one lost write each, none lost', async () => {
    const texts: string[] = [];
    const [a, b] = [await recordingStore(texts), await recordingStore(texts)];
    await a.transaction('hot', () => undefined);
    texts.length = 0;
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).transaction('hot', (state) => createPayment(state, `hot-${i}`).id, undefined, WRITES),
      ),
    );
    expect(new Set(ids).size).toBe(40);
    // Each instance's first race makes it take the tenant's lock for its later writes, which then wait, not race; and
    // an instance's creates that arrive together commit together.
    const writes = writesOf(texts).length;
    expect(writes).toBeLessThanOrEqual(42);
    const locks = texts.filter((text) => text.startsWith('SELECT 1 FROM sandbox_tenants WHERE id = $1 FOR UPDATE'));
    if (writes > Math.ceil(40 / MAX_BATCH) + 1) expect(locks.length).toBeGreaterThan(0);
    const listed = await a.transaction('hot', (state) => state.payments.page({ limit: 100, offset: 0 }));
    expect(listed.map((p) => p.id).sort()).toEqual([...ids].sort());
  });

  it('commits the creates that arrive together on one instance in one write, each with its own answer', async () => {
    const texts: string[] = [];
    const store = await recordingStore(texts);
    await store.transaction('burst', () => undefined);
    texts.length = 0;
    const broken = new Error('a command that throws');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        store.transaction(
          'burst',
          (state) => {
            const made = createPayment(state, `burst-${i}`);
            if (i === 5) throw broken;
            return made.id;
          },
          undefined,
          WRITES,
        ),
      ),
    );
    expect(outcomes[5]).toEqual({ status: 'rejected', reason: broken });
    const ids = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(new Set(ids).size).toBe(11);
    expect(writesOf(texts)).toHaveLength(1);
    // Nothing of the command that threw was written: its payment is not there.
    const listed = await store.transaction('burst', (state) => state.payments.page({ limit: 100, offset: 0 }));
    expect(listed.map((p) => p.id).sort()).toEqual([...ids].sort());
  });

  it("sets only the head's columns a command changed", async () => {
    const texts: string[] = [];
    const store = await recordingStore(texts);
    await store.transaction('columns', (state) => createPayment(state, 'columns-1'), undefined, WRITES);
    texts.length = 0;
    await store.transaction('columns', (state) => createPayment(state, 'columns-2'), undefined, WRITES);
    const [create] = writesOf(texts);
    const head = create!.slice(0, create!.indexOf('RETURNING'));
    expect(head).toMatch(/ids_state = /);
    for (const untouched of [
      'faults',
      'endpoints',
      'clock_mode',
      'clock_offset',
      'secret_key_digest',
      'retry_compression',
    ])
      expect(head).not.toMatch(new RegExp(`[ ,]${untouched} = `));
    texts.length = 0;
    await store.transaction(
      'columns',
      (state) =>
        void state.faults.push({ id: 'flt_1', operation: 'createPayment', status: 500, remaining: 1 } as never),
      undefined,
      WRITES,
    );
    expect(writesOf(texts)[0]).toMatch(/, faults = /);
    expect(writesOf(texts)[0]).not.toMatch(/ids_state = /);
  });
});

describe('the postgres store’s deep pages', () => {
  const TENANT = 'deep';
  const MADE = 600;
  let store: TenantStore;
  /** A status a new payment may be forced to. */
  const NEXT = rowsFrom('payment', 'created')[0]!.to;
  /** The payments' ids, newest first, and those forced to NEXT. */
  let newest: string[];
  let moved: Set<string>;

  beforeAll(async () => {
    store = await recordingStore([]);
    // Two transactions of many creates each, so that one write inserts many ordinals and a later one continues them.
    const made: string[] = [];
    for (const batch of [0, 1])
      made.push(
        ...(await store.transaction(
          TENANT,
          (state) => Array.from({ length: MADE / 2 }, (_, i) => createPayment(state, `deep-${batch}-${i}`).id),
          undefined,
          WRITES,
        )),
      );
    newest = [...made].reverse();
    moved = new Set(made.filter((_, i) => i % 3 === 0));
    await store.transaction(
      TENANT,
      (state) => {
        for (const id of moved) okBody(run(state, { type: 'forceStatus', kind: 'payment', id, status: NEXT } as never));
      },
      undefined,
      WRITES,
    );
  });

  it('answers every offset, filtered or not, with the rows a scan would', async () => {
    const filtered = newest.filter((id) => moved.has(id));
    for (const offset of [0, 1, 99, 250, 499, 599, 600, 10_000, 2_147_483_647]) {
      const page = await store.transaction(TENANT, (state) => state.payments.page({ limit: 100, offset }));
      expect(page.map((p) => p.id)).toEqual(newest.slice(offset, offset + 100));
      const only = await store.transaction(TENANT, (state) =>
        state.payments.page({ status: NEXT, limit: 100, offset }),
      );
      expect(only.map((p) => p.id)).toEqual(filtered.slice(offset, offset + 100));
    }
  });

  /** The plan nodes of a page read, as PostgreSQL ran it. */
  async function planOf(read: Read) {
    const statement = readStatement(TENANT, Date.now(), [read], false);
    const explained = await poolOn().query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
    const nodes: { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows': number }[] = [];
    const walk = (node: Record<string, unknown>) => {
      nodes.push(node as never);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((explained.rows[0]!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
    return nodes.filter((node) => node['Relation Name'] === 'sandbox_objects');
  }

  it('reads only the page’s rows at a deep offset, from the ordinal index', async () => {
    const scans = await planOf({ read: 'page', kind: 'payment', status: null, limit: 20, offset: 550 });
    expect(scans.length).toBeGreaterThan(0);
    // The newest ordinal is one row of the index; the page, its 20.
    for (const scan of scans) expect(scan['Actual Rows']).toBeLessThanOrEqual(20);
    expect(scans.some((scan) => scan['Index Name'] === 'sandbox_objects_ordinal')).toBe(true);
  });

  it('walks a filtered page’s offset in the status index alone, then reads the page’s rows', async () => {
    const scans = await planOf({ read: 'page', kind: 'payment', status: NEXT, limit: 20, offset: 150 });
    const walk = scans.find((scan) => scan['Index Name'] === 'sandbox_objects_status_ordinal');
    expect(walk?.['Node Type']).toBe('Index Only Scan');
    const fetched = scans.filter((scan) => scan !== walk);
    expect(fetched.length).toBeGreaterThan(0);
    for (const scan of fetched) expect(scan['Actual Rows']).toBeLessThanOrEqual(20);
  });
});
