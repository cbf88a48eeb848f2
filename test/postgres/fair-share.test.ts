// The hosted sandbox's fair share on PostgreSQL (issue 40): a merchant (a tenant and its test tenants) flooding the
// store with lists cannot stall another merchant's retrieves on the same instance, and gets 429 with Retry-After
// itself; a statement stopped at statement_timeout or lock_timeout answers the contract's retry-safe problem, logs one
// line naming the tenant, the merchant and the operation, and leaves nothing half written.
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { pino } from 'pino';
import { openSandbox, type Sandbox, type SandboxOptions } from '../../packages/sandbox/src/index.js';
import { connectPool } from '../../packages/sandbox/src/stores/postgres/connect.js';
import { call } from '../sandbox/fixtures.js';
import { freshDatabase } from './database.js';

const opened: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(opened.map((sandbox) => sandbox.close()));
});

async function instance(databaseUrl: string, options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await openSandbox({ store: 'postgres', databaseUrl, seed: 'pg-fair', ...options });
  opened.push(sandbox);
  return sandbox;
}

async function send(sandbox: Sandbox, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await call(sandbox, method, path, headers, body);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const payment = (n: number) => ({ amount: `${10 + (n % 90)}.00`, currency: 'EUR', requisite: { type: 'card' } });

/** Creates `n` payments in the tenant of `headers`, five at a time (within a budget of one at work and four waiting). */
async function seed(sandbox: Sandbox, headers: Record<string, string>, n: number, tag: string) {
  for (let i = 0; i < n; i += 5) {
    const made = await Promise.all(
      Array.from({ length: Math.min(5, n - i) }, (_, j) =>
        send(sandbox, 'POST', '/payments', { ...headers, 'idempotency-key': `${tag}-${i + j}` }, payment(i + j)),
      ),
    );
    for (const one of made) expect(one.status, JSON.stringify(one.body)).toBe(200);
  }
}

/** A pino logger whose lines land in `lines`, parsed. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/**
 * Two instances on a new database: `steady` with the default bounds, and `bounded` with `bounds` and its log lines kept
 * in `lines`; and a tenant (`headers`) with `payments` payments.
 */
async function twoInstances(token: string, payments: number, bounds: SandboxOptions) {
  const databaseUrl = await freshDatabase();
  const steady = await instance(databaseUrl);
  const headers = bearer(token);
  await seed(steady, headers, payments, 'before');
  const { logger, lines } = capturingLogger();
  const bounded = await instance(databaseUrl, { ...bounds, logger });
  return { databaseUrl, steady, bounded, headers, lines };
}

/**
 * A create of payment `n` on `sandbox` while a test connection holds `lock` (a statement) in an open transaction, which
 * it rolls back after the answer.
 */
async function createWhileLocked(
  databaseUrl: string,
  lock: string,
  sandbox: Sandbox,
  headers: Record<string, string>,
  n: number,
) {
  const locker = new pg.Client({ connectionString: databaseUrl });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query(lock);
    return await send(sandbox, 'POST', '/payments', { ...headers, 'idempotency-key': `locked-${n}` }, payment(n));
  } finally {
    await locker.query('ROLLBACK');
    await locker.end();
  }
}

describe('the fair share on postgres', () => {
  it("keeps another merchant's retrieves within the statement timeout while a merchant and its test tenants flood lists", async () => {
    const databaseUrl = await freshDatabase();
    const statementTimeoutMs = 5_000;
    // Note: a pool of 4 gives each merchant one connection at a time; a queue of 4 makes a flood of 20 overflow it.
    const sandbox = await instance(databaseUrl, { poolSize: 4, merchantQueueLength: 4, statementTimeoutMs });
    const m1 = bearer('merchant-one');
    const tests: Record<string, string>[] = [];
    for (let i = 0; i < 3; i += 1) {
      const made = await send(sandbox, 'POST', '/_sandbox/tenants', m1);
      expect(made.status).toBe(201);
      tests.push(bearer(made.body.data.access_token as string));
    }
    for (const [i, test] of tests.entries()) await seed(sandbox, test, 120, `m1-${i}`);
    const m2 = bearer('merchant-two');
    await seed(sandbox, m2, 1, 'm2');
    const mine = (await send(sandbox, 'GET', '/payments?limit=1', m2)).body.data[0].id as string;

    let flooding = true;
    const refused: { status: number; retryAfter: string | null; code: string }[] = [];
    let listed = 0;
    const flood = Array.from({ length: 20 }, async (_, client) => {
      while (flooding) {
        const list = await send(sandbox, 'GET', '/payments?limit=100&offset=19', tests[client % tests.length]!);
        if (list.status === 200) listed += 1;
        else refused.push({ status: list.status, retryAfter: list.headers.get('retry-after'), code: list.body.code });
      }
    });
    const took: number[] = [];
    try {
      for (let i = 0; i < 15; i += 1) {
        const started = performance.now();
        const retrieved = await send(sandbox, 'GET', `/payments/${mine}`, m2);
        took.push(performance.now() - started);
        expect(retrieved.status).toBe(200);
        expect(retrieved.body.data.id).toBe(mine);
      }
    } finally {
      flooding = false;
      await Promise.all(flood);
    }
    // Note: the bound, not a ratio: no answer to the other merchant waits longer than one stopped statement and a second.
    expect(Math.max(...took)).toBeLessThan(statementTimeoutMs + 1_000);
    expect(listed).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const one of refused) expect(one).toEqual({ status: 429, retryAfter: '2', code: 'rate_limited' });
  });

  it('answers a statement stopped at statement_timeout with 500 safe to retry, one log line, and no row written', async () => {
    // Note: a lock held from a test connection makes the statements wait; the statement time-out, shorter than the
    // lock time-out, stops them, so the bound that fires is the one under test whatever the machine's speed.
    const { databaseUrl, steady, bounded, headers, lines } = await twoInstances('merchant-timed-out', 3, {
      statementTimeoutMs: 300,
      lockTimeoutMs: 60_000,
    });
    const lock = 'LOCK TABLE sandbox_objects IN ACCESS EXCLUSIVE MODE';
    const created = await createWhileLocked(databaseUrl, lock, bounded, headers, 7);
    expect(created.status).toBe(500);
    expect(created.body.code).toBe('internal_error');
    expect(created.body.detail).toContain('statement_timeout');
    expect(created.body.detail).toContain('safe to retry with the same Idempotency-Key');
    const stopped = lines.filter((line) => line.stopped !== undefined);
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatchObject({
      level: 40,
      msg: 'statement stopped',
      stopped: 'statement_timeout',
      operation: 'createPayment',
      status: 500,
      tenant: expect.stringMatching(/^a_/),
    });
    expect(stopped[0]!.merchant).toBe(stopped[0]!.tenant);
    expect(lines.filter((line) => line.requestId === stopped[0]!.requestId)).toHaveLength(1);
    // Nothing of the stopped create was written: the tenant still has its three payments, and the retry makes one.
    const listed = await send(steady, 'GET', '/payments', headers);
    expect(listed.body.pagination.total).toBe(3);
    const retried = await send(bounded, 'POST', '/payments', { ...headers, 'idempotency-key': 'locked-7' }, payment(7));
    expect(retried.status).toBe(200);
    expect((await send(steady, 'GET', '/payments', headers)).body.pagination.total).toBe(4);
  });

  it('answers a statement stopped at lock_timeout with 429 and Retry-After, and writes nothing', async () => {
    const { databaseUrl, steady, bounded, headers, lines } = await twoInstances('merchant-locked-out', 2, {
      statementTimeoutMs: 60_000,
      lockTimeoutMs: 200,
    });
    // Note: the row every write of the tenant updates; reads take no lock and go through.
    const lock = "SELECT 1 FROM sandbox_tenants WHERE id LIKE 'a\\_%' FOR UPDATE";
    const created = await createWhileLocked(databaseUrl, lock, bounded, headers, 3);
    expect([created.status, created.headers.get('retry-after'), created.body.code]).toEqual([429, '1', 'rate_limited']);
    expect(created.body.detail).toContain('safe to retry');
    const stopped = lines.filter((line) => line.stopped !== undefined);
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatchObject({ stopped: 'lock_timeout', operation: 'createPayment', status: 429 });
    expect((await send(steady, 'GET', '/payments', headers)).body.pagination.total).toBe(2);
    const retried = await send(bounded, 'POST', '/payments', { ...headers, 'idempotency-key': 'locked-3' }, payment(3));
    expect(retried.status).toBe(200);
    expect((await send(steady, 'GET', '/payments', headers)).body.pagination.total).toBe(3);
  });

  it('opens every connection of its pool with the statement and lock time-outs, and no other default', async () => {
    const databaseUrl = await freshDatabase();
    const pool = await connectPool(databaseUrl, { poolSize: 2, statementTimeoutMs: 1234, lockTimeoutMs: 567 });
    try {
      const settings =
        "SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock";
      const both = await Promise.all([pool.query(settings), pool.query(settings), pool.query(settings)]);
      for (const { rows } of both) expect(rows[0]).toEqual({ statement: '1234ms', lock: '567ms' });
      expect(pool.totalCount).toBe(2);
    } finally {
      await pool.end();
    }
    const plain = await connectPool(databaseUrl, {});
    try {
      const { rows } = await plain.query("SELECT current_setting('statement_timeout') AS statement");
      expect(rows[0]).toEqual({ statement: '5s' });
    } finally {
      await plain.end();
    }
  });
});
