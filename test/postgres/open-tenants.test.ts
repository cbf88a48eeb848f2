// Open mode's bound on tenants on postgres (issue 24): two instances on one database racing to make new tenants never
// pass `tenants.max` (a count row raised only below the bound); idle tenants are forgotten by one DELETE that skips
// the rows a transaction holds, and last_used_at is written only once it is older than the store's precision (a tenth
// of the idle time, at most a minute). The wall clock is the `now` option, moved by the test; idle times are 600 s, so
// that the sweep's own timer (a minute apart then) never runs during a test.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openSandbox, type Sandbox, type SandboxOptions } from '../../packages/sandbox/src/index.js';
import { freshDatabase } from './database.js';

const START = Date.UTC(2026, 0, 1);
const ORIGIN = 'http://sandbox.test';
const opened: Sandbox[] = [];
const clients: pg.Client[] = [];
afterAll(async () => {
  await Promise.all(opened.map((sandbox) => sandbox.close().catch(() => {})));
  await Promise.all(clients.map((client) => client.end().catch(() => {})));
});

/** `count` sandboxes on one fresh database, sharing a wall clock the test moves (in seconds). */
async function instances(count: number, options: SandboxOptions) {
  const databaseUrl = await freshDatabase();
  let wall = START;
  const sandboxes: Sandbox[] = [];
  for (let i = 0; i < count; i += 1) {
    const sandbox = await openSandbox({ store: 'postgres', databaseUrl, now: () => wall, ...options });
    opened.push(sandbox);
    sandboxes.push(sandbox);
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  clients.push(db);
  return {
    sandboxes,
    db,
    move: (seconds: number) => void (wall += seconds * 1000),
    at: (seconds: number) => START + seconds * 1000,
  };
}

/**
 * A GET, answered and settled: the deliveries' look after it (a transaction of its own, so a use too) has run before
 * the test moves the wall clock.
 */
async function get(sandbox: Sandbox, path: string, headers: Record<string, string>): Promise<Response> {
  const response = await sandbox.fetch(new Request(`${ORIGIN}${path}`, { headers }));
  await sandbox.settled();
  return response;
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function metric(sandbox: Sandbox, name: string): Promise<number> {
  const text = await (await sandbox.fetch(new Request(`${ORIGIN}/metrics`))).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`/metrics has no ${name}`);
  return Number(line.slice(name.length + 1));
}

const tenantRows = async (db: pg.Client) =>
  (await db.query('SELECT id, version, last_used_at FROM sandbox_tenants ORDER BY id')).rows as {
    id: string;
    version: string;
    last_used_at: number;
  }[];

describe('tenants.max on postgres', () => {
  it('never passes the bound when two instances race to make 100 new tenants, and never refuses one that exists', async () => {
    const { sandboxes, db } = await instances(2, { tenants: { max: 20, idleSeconds: 3600 } });
    const tokens = Array.from({ length: 100 }, (_, i) => `race-${i}`);
    const answers = await Promise.all(tokens.map((token, i) => get(sandboxes[i % 2]!, '/payments', bearer(token))));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80);
    expect(Number((await db.query('SELECT count(*) FROM sandbox_tenants')).rows[0].count)).toBe(20);
    // Note: each admitted token, through the other instance this time, gets in; each refused one still does not.
    const again = await Promise.all(tokens.map((token, i) => get(sandboxes[(i + 1) % 2]!, '/payments', bearer(token))));
    expect(again.map((answer) => answer.status)).toEqual(statuses);
    expect([await metric(sandboxes[0]!, 'sandbox_tenants'), await metric(sandboxes[1]!, 'sandbox_tenants')]).toEqual([
      20, 20,
    ]);
  });

  it('forgets the idle tenants once at the bound before refusing, and gives Retry-After from the oldest last use plus the precision', async () => {
    const {
      sandboxes: [sandbox],
      move,
    } = await instances(1, { tenants: { max: 2, idleSeconds: 600 } });
    expect((await get(sandbox!, '/payments', bearer('t1'))).status).toBe(200);
    move(5);
    expect((await get(sandbox!, '/payments', bearer('t2'))).status).toBe(200);
    move(15);
    const refused = await get(sandbox!, '/payments', bearer('t3'));
    const problem = await refused.json();
    // Note: t1's use at 0 s may be written up to 60 s (a tenth of the idle time, at most a minute) late, so it is
    // forgotten at 660 s, never before 600 s.
    expect([refused.status, refused.headers.get('retry-after'), problem.code]).toEqual([
      429,
      '640',
      'tenant_limit_reached',
    ]);
    expect(problem.detail).toContain('most tenants (2)');
    move(639);
    expect((await get(sandbox!, '/payments', bearer('t3'))).status).toBe(429);
    move(1);
    expect((await get(sandbox!, '/payments', bearer('t3'))).status).toBe(200);
    expect(await metric(sandbox!, 'sandbox_tenants_evicted_total')).toBe(1);
  });
});

describe('tenants.idleSeconds on postgres', () => {
  it("writes a tenant's use only once it is older than the precision, never bumping the version for it", async () => {
    const {
      sandboxes: [sandbox],
      db,
      move,
      at,
    } = await instances(1, { tenants: { idleSeconds: 600 } });
    expect((await get(sandbox!, '/payments', bearer('reader'))).status).toBe(200);
    const [made] = await tenantRows(db);
    expect(made!.last_used_at).toBe(at(0));
    move(59);
    expect((await get(sandbox!, '/payments', bearer('reader'))).status).toBe(200);
    expect(await tenantRows(db)).toEqual([made]);
    move(1);
    expect((await get(sandbox!, '/payments', bearer('reader'))).status).toBe(200);
    expect(await tenantRows(db)).toEqual([{ ...made, last_used_at: at(60) }]);
  });

  it('forgets a tenant unused for the idle time with all its rows, keeps one used meanwhile, and frees its Variant B public key', async () => {
    const {
      sandboxes: [one, two],
      db,
      move,
    } = await instances(2, { tenants: { idleSeconds: 600 } });
    const created = await one!.fetch(
      new Request(`${ORIGIN}/payments`, {
        method: 'POST',
        headers: { ...bearer('idle'), 'content-type': 'application/json', 'idempotency-key': 'k' },
        body: JSON.stringify({ amount: '42.50', currency: 'EUR', requisite: { type: 'card' } }),
      }),
    );
    const payment = (await created.json()).data;
    await one!.settled();
    expect(
      (await get(one!, '/merchant/v1/payments', { 'x-public-key': 'pk_idle', 'x-secret-key': 'sk_first' })).status,
    ).toBe(200);
    expect((await get(two!, '/payments', bearer('busy'))).status).toBe(200);
    move(300);
    expect((await get(two!, '/payments', bearer('busy'))).status).toBe(200);
    move(359);
    expect(await one!.store.evictIdle!()).toBe(0);
    move(1);
    // Note: either instance's sweep forgets them; the other's finds nothing left.
    expect([await two!.store.evictIdle!(), await one!.store.evictIdle!()]).toEqual([2, 0]);
    expect((await tenantRows(db)).map((row) => row.id)).toEqual([two!.tenantId({ accessToken: 'busy' })]);
    const leftovers = await db.query(
      `SELECT (SELECT count(*) FROM sandbox_objects) + (SELECT count(*) FROM sandbox_idempotency) AS n`,
    );
    expect(Number(leftovers.rows[0].n)).toBe(0);
    expect([
      await metric(two!, 'sandbox_tenants'),
      await metric(two!, 'sandbox_tenants_evicted_total'),
      await metric(one!, 'sandbox_tenants_evicted_total'),
    ]).toEqual([1, 2, 0]);
    expect((await get(one!, `/payments/${payment.id}`, bearer('idle'))).status).toBe(404);
    expect(
      (await get(two!, '/merchant/v1/payments', { 'x-public-key': 'pk_idle', 'x-secret-key': 'sk_other' })).status,
    ).toBe(200);
  });

  it('skips a tenant whose row a transaction holds, and forgets it once let go', async () => {
    const {
      sandboxes: [sandbox],
      db,
      move,
    } = await instances(1, { tenants: { idleSeconds: 600 } });
    expect((await get(sandbox!, '/payments', bearer('held'))).status).toBe(200);
    move(660);
    await db.query('BEGIN');
    await db.query('SELECT id FROM sandbox_tenants FOR UPDATE');
    expect(await sandbox!.store.evictIdle!()).toBe(0);
    await db.query('COMMIT');
    expect(await sandbox!.store.evictIdle!()).toBe(1);
  });
});
