// Revocation is final with two issued-mode instances on one database: once DELETE /_admin/tenants/{id} answered on one,
// no request with the tenant's credentials, or with those of a test tenant made under it, succeeds on either, and
// nothing makes the tenant's rows again: creates in flight on the other instance during the revoke, test tenants made
// while it runs, and a listener held by the other instance renewing its lease after it.
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startForwarder } from '../../packages/cli/src/webhook/forward.js';
import { openSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { NOT_ISSUED } from '../../packages/sandbox/src/variants/credentials.js';
import { freshDatabase } from './database.js';
import { send } from './send.js';

const ADMIN = 'admin-token-of-at-least-32-characters-long';
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close().catch(() => {});
});

/** Two issued-mode instances on a fresh database, and a client of its own. */
async function instances() {
  const databaseUrl = await freshDatabase();
  const open = async () => {
    const sandbox = await openSandbox({ store: 'postgres', databaseUrl, auth: 'issued', adminToken: ADMIN });
    closing.push(() => sandbox.close({ graceMs: 1000 }));
    return sandbox;
  };
  const one = await open();
  const two = await open();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  closing.push(() => db.end());
  return { one, two, db };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const admin = bearer(ADMIN);
const payment = { amount: '10.00', currency: 'EUR', requisite: { type: 'card' } };

interface Issued {
  id: string;
  access_token: string;
  public_key: string;
  secret_key: string;
}

async function issue(sandbox: Sandbox): Promise<Issued> {
  const made = await send(sandbox, 'POST', '/_admin/tenants', admin);
  expect(made.status).toBe(201);
  return made.body.data as Issued;
}

/** The tenants' rows in every table of the store, by table; an empty object when there are none. */
async function rowsOf(db: pg.Client, ids: string[]): Promise<Record<string, number>> {
  const { rows } = await db.query(
    "SELECT table_name FROM information_schema.columns WHERE column_name = 'tenant_id' AND table_name LIKE 'sandbox\\_%'",
  );
  const tables = ['sandbox_tenants', ...rows.map((row) => row.table_name as string)];
  const found: Record<string, number> = {};
  for (const table of tables) {
    const column = table === 'sandbox_tenants' ? 'id' : 'tenant_id';
    const n = (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = ANY($1)`, [ids])).rows[0].n;
    if (n > 0) found[table] = n;
  }
  return found;
}

/** Every credential of `tenant` refused on both instances, with the one detail of every refusal. */
async function refusedEverywhere(sandboxes: Sandbox[], tenant: Issued) {
  for (const sandbox of sandboxes) {
    const a = await send(sandbox, 'GET', '/payments', bearer(tenant.access_token));
    expect([a.status, a.body.detail]).toEqual([401, NOT_ISSUED]);
    const b = await send(sandbox, 'GET', '/merchant/v1/payments', {
      'x-public-key': tenant.public_key,
      'x-secret-key': tenant.secret_key,
    });
    expect(b.status).toBe(401);
    expect((await send(sandbox, 'POST', '/_sandbox/tenants', bearer(tenant.access_token))).status).toBe(401);
  }
}

/**
 * Creates payments of `tenant` through `sandbox` with 8 clients, each until it is refused, and runs `revoke` once
 * `before` went in; every answer is 200 or 401 (with the one detail of every refusal), and the last of each client 401.
 */
async function createsDuring(sandbox: Sandbox, tenant: Issued, before: number, revoke: () => Promise<void>) {
  let made = 0;
  const statuses = new Set<number>();
  const details = new Set<string>();
  const clients = Array.from({ length: 8 }, async (_, client) => {
    for (let i = 0; i < 200; i += 1) {
      const headers = { ...bearer(tenant.access_token), 'idempotency-key': `c${client}-${i}` };
      const answer = await send(sandbox, 'POST', '/payments', headers, payment);
      statuses.add(answer.status);
      // Note: also a create that was past its credentials when the revoke came reads as every refusal.
      if (answer.status !== 200) return void details.add(answer.body.detail as string);
      made += 1;
    }
  });
  while (made < before) await new Promise((resolve) => setTimeout(resolve, 5));
  await revoke();
  await Promise.all(clients);
  expect([...statuses].sort()).toEqual([200, 401]);
  expect([...details]).toEqual([NOT_ISSUED]);
}

describe('revocation on two instances', () => {
  it('leaves no row and no working credential after creates in flight on the other instance, over 5 rounds', async () => {
    const { one, two, db } = await instances();
    for (let round = 0; round < 5; round += 1) {
      const tenant = await issue(one);
      await createsDuring(two, tenant, 4 + round * 3, async () => {
        expect((await send(one, 'DELETE', `/_admin/tenants/${tenant.id}`, admin)).status).toBe(204);
      });
      expect(await rowsOf(db, [tenant.id])).toEqual({});
      await refusedEverywhere([one, two], tenant);
      expect(await rowsOf(db, [tenant.id])).toEqual({});
    }
  });

  it("does the same for a test tenant's delete by its parent, over 3 rounds", async () => {
    const { one, two, db } = await instances();
    const parent = await issue(one);
    for (let round = 0; round < 3; round += 1) {
      const made = await send(one, 'POST', '/_sandbox/tenants', bearer(parent.access_token));
      const test = made.body.data as Issued;
      await createsDuring(two, test, 4 + round * 3, async () => {
        const deleted = await send(one, 'DELETE', `/_sandbox/tenants/${test.id}`, bearer(parent.access_token));
        expect(deleted.status).toBe(204);
      });
      expect(await rowsOf(db, [test.id])).toEqual({});
      await refusedEverywhere([one, two], test);
      expect(await rowsOf(db, [test.id])).toEqual({});
    }
    expect((await send(two, 'GET', '/payments', bearer(parent.access_token))).status).toBe(200);
  });

  it('leaves no usable test tenant and none of their rows when test tenants are made while the parent is revoked', async () => {
    const { one, two, db } = await instances();
    for (let round = 0; round < 3; round += 1) {
      const parent = await issue(one);
      const tests: Issued[] = [];
      // Each of 8 clients, 4 on each instance, makes test tenants and uses each at once, until it is refused.
      const clients = Array.from({ length: 8 }, async (_, client) => {
        const sandbox = client % 2 === 0 ? one : two;
        for (let i = 0; i < 20; i += 1) {
          const made = await send(sandbox, 'POST', '/_sandbox/tenants', bearer(parent.access_token));
          if (made.status === 422 && made.body.code === 'limit_reached') continue;
          if (made.status !== 201) {
            expect([made.status, made.body.detail]).toEqual([401, NOT_ISSUED]);
            return;
          }
          tests.push(made.body.data as Issued);
          const headers = { ...bearer(made.body.data.access_token as string), 'idempotency-key': `t${i}` };
          const used = await send(client % 4 < 2 ? one : two, 'POST', '/payments', headers, payment);
          expect([200, 401]).toContain(used.status);
        }
      });
      while (tests.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await send(one, 'DELETE', `/_admin/tenants/${parent.id}`, admin)).status).toBe(204);
      await Promise.all(clients);
      for (const test of tests) await refusedEverywhere([one, two], test);
      const ids = [parent.id, ...tests.map((test) => test.id)];
      expect(await rowsOf(db, ids)).toEqual({});
      const left = await db.query('SELECT count(*)::int AS n FROM sandbox_issued_tenants WHERE parent_id = $1', [
        parent.id,
      ]);
      expect(left.rows[0].n).toBe(0);
      expect((await send(two, 'GET', `/_admin/tenants/${parent.id}`, admin)).body.data.status).toBe('revoked');
    }
  });

  it('does not make the row again when a listener held by the other instance renews its lease after the revoke', async () => {
    const { one, two, db } = await instances();
    const tenant = await issue(one);
    const { url } = await two.listen({ port: 0 });
    let ready = false;
    const ended: string[] = [];
    const forwarder = startForwarder({
      from: new URL(url),
      forwardTo: new URL('http://127.0.0.1:9/hook'),
      credentials: bearer(tenant.access_token),
      timeoutMs: 10_000,
      onReady: () => (ready = true),
      onForwarded: () => {},
      onNotice: () => {},
      onFatal: (message) => void ended.push(message),
    });
    closing.push(() => forwarder.close());
    await waitUntil(() => ready);
    expect(await rowsOf(db, [tenant.id])).toEqual({ sandbox_tenants: 1 });

    expect((await send(one, 'DELETE', `/_admin/tenants/${tenant.id}`, admin)).status).toBe(204);
    expect(await rowsOf(db, [tenant.id])).toEqual({});
    // Note: the holder renews every 5 s; a renewal finds the tenant revoked and ends the listener, whose forwarder
    // cannot connect again with revoked credentials.
    expect(await waitUntil(() => ended.length > 0, 30_000)).toBe(true);
    expect(await rowsOf(db, [tenant.id])).toEqual({});
    await refusedEverywhere([one, two], tenant);
  });
});

async function waitUntil(done: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return done();
}
