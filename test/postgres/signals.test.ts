// /readyz and the pool's gauges of a sandbox on postgres: ready while the store answers with its migrations applied,
// 503 without the address once its pool is ended, its database is gone, or its migrations are not all recorded.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { READY_CACHE_MS } from '../../packages/sandbox/src/http/signals.js';
import { MIGRATIONS_TABLE } from '../../packages/sandbox/src/stores/postgres/index.js';
import { freshDatabase } from './database.js';

const opened: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(opened.map((sandbox) => sandbox.close().catch(() => {})));
});

async function open(databaseUrl: string): Promise<Sandbox> {
  const sandbox = await openSandbox({ store: 'postgres', databaseUrl });
  opened.push(sandbox);
  return sandbox;
}

const readyz = (sandbox: Sandbox) => sandbox.fetch(new Request('http://sandbox.test/readyz'));

/** Runs one statement on `url`'s server, in the maintenance database. */
async function onServer(url: string, statement: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('the operator signals on postgres', () => {
  it('answers /readyz with 200, and /metrics with the pool connection gauges', async () => {
    const sandbox = await open(await freshDatabase());
    expect((await readyz(sandbox)).status).toBe(200);
    const text = await (await sandbox.fetch(new Request('http://sandbox.test/metrics'))).text();
    expect(text).toMatch(/^sandbox_store_pool_connections \d+$/m);
    expect(text).toMatch(/^sandbox_store_pool_idle_connections \d+$/m);
    expect(text).toMatch(/^sandbox_store_pool_waiting_clients 0$/m);
  });

  it('answers /readyz with 503, never quoting the database URL, once the pool is ended', async () => {
    const url = await freshDatabase();
    const sandbox = await open(url);
    await sandbox.store.close();
    const response = await readyz(sandbox);
    expect(response.status).toBe(503);
    const text = await response.text();
    expect(text).toContain('did not accept a connection');
    expect(text).not.toContain(new URL(url).host);
  });

  it('answers /readyz with 503 once the database is gone', async () => {
    const url = await freshDatabase();
    const sandbox = await open(url);
    expect((await readyz(sandbox)).status).toBe(200);
    await onServer(url, `DROP DATABASE "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
    // Note: /readyz answers from a check at most a second old; the next probe past that sees the database gone.
    await new Promise((resolve) => setTimeout(resolve, READY_CACHE_MS + 50));
    const response = await readyz(sandbox);
    expect(response.status).toBe(503);
    expect(await response.text()).not.toContain(new URL(url).pathname.slice(1));
  });

  it('answers /readyz with 503 naming the migration the database lacks', async () => {
    const url = await freshDatabase();
    const sandbox = await open(url);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DELETE FROM ${MIGRATIONS_TABLE} WHERE name = '1776000000000_sandbox-idempotency-lease'`);
    await client.end();
    const response = await readyz(sandbox);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('1776000000000_sandbox-idempotency-lease');
  });
});
