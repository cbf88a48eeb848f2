// The count row open mode's bound is kept by (migrations/1810000000000_sandbox-tenant-count.js): raised by the statement
// that makes a tenant's row, only while below the bound, and lowered by every statement that deletes rows, so that it
// always equals the rows of sandbox_tenants: after a race of two instances, after evictions, resets and revokes, and
// when the migration fills it from rows already stored. `tenantCount` (the `sandbox_tenants` metric) reads it.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openSandbox, type Sandbox, type SandboxOptions } from '../../packages/sandbox/src/index.js';
import { freshDatabase } from './database.js';

const START = Date.UTC(2026, 0, 1);
const ORIGIN = 'http://sandbox.test';
const ADMIN = 'admin-token-of-at-least-32-characters-long';
const opened: Sandbox[] = [];
const clients: pg.Client[] = [];
afterAll(async () => {
  await Promise.all(opened.map((sandbox) => sandbox.close().catch(() => {})));
  await Promise.all(clients.map((client) => client.end().catch(() => {})));
});

/** `count` sandboxes on one database (a fresh one unless given), sharing a wall clock the test moves. */
async function instances(count: number, options: SandboxOptions, databaseUrl?: string) {
  const url = databaseUrl ?? (await freshDatabase());
  let wall = START;
  const sandboxes: Sandbox[] = [];
  for (let i = 0; i < count; i += 1) {
    const sandbox = await openSandbox({ store: 'postgres', databaseUrl: url, now: () => wall, ...options });
    opened.push(sandbox);
    sandboxes.push(sandbox);
  }
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  clients.push(db);
  return { sandboxes, db, url, move: (seconds: number) => void (wall += seconds * 1000) };
}

async function send(sandbox: Sandbox, method: string, path: string, headers: Record<string, string>) {
  const response = await sandbox.fetch(new Request(`${ORIGIN}${path}`, { method, headers }));
  await sandbox.settled();
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The count row and the rows it counts. */
async function counts(db: pg.Client) {
  const { rows } = await db.query(
    'SELECT (SELECT n FROM sandbox_tenant_count)::int AS kept, (SELECT count(*) FROM sandbox_tenants)::int AS rows',
  );
  return rows[0] as { kept: number; rows: number };
}

describe('the tenant count row', () => {
  it('keeps the bound exactly when 200 new tenants arrive at once through two instances, each token twice', async () => {
    const { sandboxes, db } = await instances(2, { tenants: { max: 30, idleSeconds: 3600 } });
    // Note: every token comes through both instances at once, so that two statements make the same row and only one counts it.
    const tokens = Array.from({ length: 100 }, (_, i) => `burst-${i}`);
    const answers = await Promise.all(
      tokens.flatMap((token) => sandboxes.map((sandbox) => send(sandbox, 'GET', '/payments', bearer(token)))),
    );
    const admitted = answers.filter((answer) => answer.status === 200).length;
    const refused = answers.filter((answer) => answer.status === 429);
    expect(admitted + refused.length).toBe(200);
    expect(refused[0]?.body.code).toBe('tenant_limit_reached');
    expect(await counts(db)).toEqual({ kept: 30, rows: 30 });
    expect(await sandboxes[0]!.store.tenantCount!()).toBe(30);
    expect(await sandboxes[1]!.store.tenantCount!()).toBe(30);
  });

  it('is lowered by evictions, resets and a revoke, and the freed room is taken again up to the bound', async () => {
    const { sandboxes, db, move } = await instances(2, { tenants: { max: 10, idleSeconds: 600 } });
    const [one, two] = sandboxes as [Sandbox, Sandbox];
    for (let i = 0; i < 10; i += 1) expect((await send(one, 'GET', '/payments', bearer(`old-${i}`))).status).toBe(200);
    expect((await send(two, 'GET', '/payments', bearer('one-too-many'))).status).toBe(429);
    expect(await counts(db)).toEqual({ kept: 10, rows: 10 });

    move(700);
    for (let i = 0; i < 4; i += 1) expect((await send(one, 'GET', '/payments', bearer(`old-${i}`))).status).toBe(200);
    expect(await two.store.evictIdle!()).toBe(6);
    expect(await counts(db)).toEqual({ kept: 4, rows: 4 });

    expect((await send(two, 'POST', '/_sandbox/reset', bearer('old-0'))).status).toBe(204);
    expect((await send(one, 'POST', '/_sandbox/reset', bearer('never-used'))).status).toBe(204);
    expect(await counts(db)).toEqual({ kept: 3, rows: 3 });

    const fresh = await Promise.all(
      Array.from({ length: 12 }, (_, i) => send(sandboxes[i % 2]!, 'GET', '/payments', bearer(`new-${i}`))),
    );
    expect(fresh.filter((answer) => answer.status === 200)).toHaveLength(7);
    expect(await counts(db)).toEqual({ kept: 10, rows: 10 });
    expect(await one.store.tenantCount!()).toBe(10);
  });

  it('counts issued tenants too, made on first use, and a revoke of one with test tenants lowers it by their rows', async () => {
    const { sandboxes, db } = await instances(1, { auth: 'issued', adminToken: ADMIN });
    const sandbox = sandboxes[0]!;
    const made = await send(sandbox, 'POST', '/_admin/tenants', bearer(ADMIN));
    const parent = made.body.data as { id: string; access_token: string };
    expect((await send(sandbox, 'GET', '/payments', bearer(parent.access_token))).status).toBe(200);
    const test = await send(sandbox, 'POST', '/_sandbox/tenants', bearer(parent.access_token));
    expect(test.status).toBe(201);
    expect((await send(sandbox, 'GET', '/payments', bearer(test.body.data.access_token as string))).status).toBe(200);
    expect(await counts(db)).toEqual({ kept: 2, rows: 2 });
    expect((await send(sandbox, 'DELETE', `/_admin/tenants/${parent.id}`, bearer(ADMIN))).status).toBe(204);
    expect(await counts(db)).toEqual({ kept: 0, rows: 0 });
    expect(await sandbox.store.tenantCount!()).toBe(0);
  });

  it('is filled by its migration from the rows already stored', async () => {
    const { sandboxes, db, url } = await instances(1, { tenants: { max: 100, idleSeconds: 3600 } });
    for (let i = 0; i < 7; i += 1)
      expect((await send(sandboxes[0]!, 'GET', '/payments', bearer(`stored-${i}`))).status).toBe(200);
    await sandboxes[0]!.close();
    // The database as it was before the migration: its table gone and the migration not recorded.
    await db.query('DROP TABLE sandbox_tenant_count');
    await db.query("DELETE FROM sandbox_pgmigrations WHERE name = '1810000000000_sandbox-tenant-count'");
    const again = await instances(1, { tenants: { max: 100, idleSeconds: 3600 } }, url);
    expect(await counts(db)).toEqual({ kept: 7, rows: 7 });
    expect(await again.sandboxes[0]!.store.tenantCount!()).toBe(7);
  });
});
